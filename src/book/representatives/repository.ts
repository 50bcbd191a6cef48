import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export class RepresentativesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  brokerDealers(firmId: number) {
    return this.db.selectFrom('broker_dealers').selectAll().where('firm_id', '=', firmId).orderBy('name').orderBy('id').execute();
  }
}
