import { randomUUID } from 'node:crypto';
import type { Migration } from 'kysely';
import type { AnyDb } from './helpers.js';

/** Spec 2.5's system reasons: the same names as src/trade-blocks/records.ts (a migration keeps its own copy). */
const SYSTEM_REASONS = ['Manual', 'OCI', 'TOM Only', 'Fixed Income'];

/**
 * Firms get their system trade-block reasons when they are created; this gives
 * them to firms created before, which had them only once the platform's trade blocks were used.
 */
export const systemReasons: Migration = {
  async up(db: AnyDb) {
    const firms = await db.selectFrom('firms').select('id').execute();
    const existing = await db.selectFrom('trade_block_reasons').select(['firm_id', 'name']).execute();
    const have = new Set(existing.map((r: { firm_id: number; name: string }) => `${r.firm_id}|${r.name}`));
    const now = new Date().toISOString();
    const rows = firms.flatMap(({ id }: { id: number }) =>
      SYSTEM_REASONS.filter((name) => !have.has(`${id}|${name}`)).map((name) => ({
        firm_id: id,
        global_id: randomUUID(),
        name,
        is_system_maintained: 1,
        allow_detail_assignment: 1,
        created_at: now,
        created_by: 'system',
        edited_at: now,
        edited_by: 'system',
      })),
    );
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('trade_block_reasons').values(rows.slice(i, i + 500)).execute();
  },
  async down() {
    // The reasons stay: details may refer to them, and the platform would create them on first use anyway.
  },
};
