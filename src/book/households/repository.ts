import type { Kysely } from 'kysely';
import { firmCheck } from '../../db/firm-check.js';
import { pricedHoldingsByAccount } from '../../db/holdings.js';
import type { Database } from '../../db/schema.js';

/** What the household verbose record shows of the book below a household: set-based, per page of households. */
export class HouseholdDetailsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  registrationsOf(firmId: number, clientIds: number[]) {
    return this.db
      .selectFrom('registrations')
      .select(['id', 'client_id', 'name', 'type'])
      .where(firmCheck('firm_id'), '=', firmId)
      .where('client_id', 'in', clientIds)
      .orderBy('id')
      .execute();
  }

  accountsOf(firmId: number, clientIds: number[]) {
    return this.db
      .selectFrom('accounts as a')
      .innerJoin('registrations as g', 'g.id', 'a.registration_id')
      .leftJoin('models as m', 'm.id', 'a.model_id')
      .leftJoin('restricted_plans as p', 'p.id', 'a.restricted_plan_id')
      .select([
        'a.id',
        'g.client_id',
        'a.registration_id',
        'a.number',
        'a.name',
        'a.custodian',
        'a.model_id',
        'm.name as model_name',
        'a.restricted_plan_id',
        'p.name as restricted_plan_name',
        'a.cash_cents',
        'a.is_active',
      ])
      .where(firmCheck('a.firm_id'), '=', firmId)
      .where('g.client_id', 'in', clientIds)
      .orderBy('a.id')
      .execute();
  }

  pricedHoldingsOf(firmId: number, accountIds: number[]) {
    return pricedHoldingsByAccount(this.db, firmId, accountIds);
  }

  representativesOf(firmId: number, ids: number[]) {
    return this.db.selectFrom('representatives').select(['id', 'name']).where('firm_id', '=', firmId).where('id', 'in', ids).execute();
  }

  /** Each household's risk-profiling result, when its partner client has answered a survey. */
  surveysOf(firmId: number, clientIds: number[]) {
    return this.db
      .selectFrom('risk_clients as c')
      .innerJoin('risk_surveys as s', 's.id', 'c.current_survey_id')
      .select(['c.household_id', 's.risk_score', 's.category', 's.created_at'])
      .where(firmCheck('c.firm_id'), '=', firmId)
      .where('c.household_id', 'in', clientIds)
      .execute();
  }
}
