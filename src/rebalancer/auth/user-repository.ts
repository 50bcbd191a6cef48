import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** The signed-in user as the rebalancing application describes it: user, role, firm and teams. */
export class RebalancerUserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  user(firmId: number, userId: number) {
    return this.db
      .selectFrom('users as u')
      .innerJoin('roles as r', 'r.id', 'u.role_id')
      .innerJoin('firms as f', 'f.id', 'u.firm_id')
      .select(['u.id', 'u.user_name', 'u.display_name', 'u.email', 'u.is_active', 'u.created_at', 'r.id as role_id', 'r.name as role_name', 'f.id as firm_id', 'f.name as firm_name'])
      .where('u.firm_id', '=', firmId)
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

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
