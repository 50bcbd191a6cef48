import type { Kysely } from 'kysely';
import { idChunks } from '../db/id-chunks.js';
import type { Database } from '../db/schema.js';

/** Expands a rebalance request's entity and keys into the firm's accounts. */
export class SelectionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  firm(firmId: number) {
    return this.db.selectFrom('firms').select(['id', 'name', 'default_asset_values']).where('id', '=', firmId).executeTakeFirstOrThrow();
  }

  async existing(table: 'trade_groups' | 'model_aggs', firmId: number, ids: number[]) {
    const rows = await this.db.selectFrom(table).select('id').where('firm_id', '=', firmId).where('id', 'in', ids).execute();
    return new Set(rows.map((r) => r.id));
  }

  async tradeGroupAccounts(firmId: number, groupIds: number[]) {
    const rows = await this.db
      .selectFrom('trade_group_accounts')
      .select('account_id')
      .where('firm_id', '=', firmId)
      .where('trade_group_id', 'in', groupIds)
      .orderBy('account_id')
      .execute();
    return rows.map((r) => r.account_id);
  }

  async modelAggAccounts(firmId: number, aggIds: number[]) {
    const rows = await this.db
      .selectFrom('accounts as a')
      .innerJoin('model_agg_models as m', 'm.model_id', 'a.model_id')
      .select('a.id')
      .where('a.firm_id', '=', firmId)
      .where('m.model_agg_id', 'in', aggIds)
      .orderBy('a.id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** Positions held by the named accounts of the firm (a sample, to size a batch's chunks). */
  async positionCount(firmId: number, accountIds: number[]): Promise<number> {
    if (accountIds.length === 0) return 0;
    const row = await this.db
      .selectFrom('positions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('firm_id', '=', firmId)
      .where('account_id', 'in', accountIds)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /**
   * The household (client) of each named account of the firm, ordered by household then account.
   * Read in slices: a batch may name a million accounts, past any statement's parameter limit.
   */
  async householdsOf(firmId: number, accountIds: number[]) {
    const rows: { id: number; client_id: number }[] = [];
    for (const slice of idChunks(this.db, accountIds)) {
      rows.push(...(await this.db.selectFrom('accounts as a').innerJoin('registrations as r', 'r.id', 'a.registration_id').select(['a.id', 'r.client_id']).where('a.firm_id', '=', firmId).where('a.id', 'in', slice).execute()));
    }
    return rows.sort((a, b) => a.client_id - b.client_id || a.id - b.id);
  }

  /** Every account of the registrations of the named accounts, in slices as householdsOf. */
  async registrationMembers(firmId: number, accountIds: number[]) {
    const byId = new Map<number, { id: number; registration_id: number }>();
    for (const slice of idChunks(this.db, accountIds)) {
      const rows = await this.db
        .selectFrom('accounts as a')
        .innerJoin('accounts as k', 'k.registration_id', 'a.registration_id')
        .select(['a.id', 'a.registration_id'])
        .distinct()
        .where('k.firm_id', '=', firmId)
        .where('k.id', 'in', slice)
        .execute();
      for (const row of rows) byId.set(row.id, row);
    }
    return [...byId.values()].sort((a, b) => a.registration_id - b.registration_id || a.id - b.id);
  }
}
