import type { Migration } from 'kysely';
import { type AnyDb, dropTables, firmTable, index, withAudit } from './helpers.js';

/**
 * Buy and sell priorities (section 2.8) of a model's securities, targets and equivalents alike.
 * Keyed by model and product rather than hung off model_allocations, which a model
 * update rewrites whole; the model service drops the rows of products that leave the model.
 */
export const modelSecurityPriorities: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'model_security_priorities')
        .addColumn('model_id', 'integer', (c) => c.notNull().references('models.id').onDelete('cascade'))
        .addColumn('product_id', 'integer', (c) => c.notNull().references('products.id'))
        .addColumn('buy_priority_id', 'integer')
        .addColumn('sell_priority_id', 'integer'),
    ).execute();
    await index(db, 'model_security_priorities', ['model_id', 'product_id'], true);
    await index(db, 'model_security_priorities', ['firm_id', 'model_id']);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['model_security_priorities']);
  },
};
