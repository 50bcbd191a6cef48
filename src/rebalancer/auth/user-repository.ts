import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The teams of the signed-in user, which the rebalancing application adds to its answer of who the user is. */
export class RebalancerUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async teams(firmId: number, userId: number) {
    const rows = await this.db
      .selectFrom('team_users as tu')
      .innerJoin('teams as t', 't.id', 'tu.team_id')
      .select(['t.id', 't.name'])
      .where('tu.firm_id', '=', firmId)
      .where('tu.user_id', '=', userId)
      .orderBy('t.name')
      .execute();
    return rows;
  }
}
