import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, dropTables } from './helpers.js';

/**
 * User-defined (custom) fields of section 4.9: a firm's field definitions per level and their
 * values per record. Representatives need no new columns: the long tail of section 2.13 lives in
 * `representatives.details`.
 */
export const customFields: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'user_defined_definitions')
        // Representative, Household, Registration, Account or Product.
        .addColumn('entity', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('category', 'text')
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
        // The privilege a caller needs, beside portfolio.edit, to change a value; null: none.
        .addColumn('security_code', 'text'),
    ).execute();
    await index(db, 'user_defined_definitions', ['firm_id', 'entity', 'code'], true);

    // entity_id points at the definition's level table, so it carries no foreign key.
    await withAudit(
      firmTable(db, 'user_defined_values')
        .addColumn('definition_id', 'integer', (c) => c.notNull().references('user_defined_definitions.id'))
        .addColumn('entity_id', 'integer', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull()),
    ).execute();
    // Reads go by record (entity_id in ...); the pair is also the upsert's conflict target.
    await index(db, 'user_defined_values', ['entity_id', 'definition_id'], true);
    await index(db, 'user_defined_values', ['definition_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['user_defined_definitions', 'user_defined_values']);
  },
};
