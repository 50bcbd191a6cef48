import type { Migration } from 'kysely';
import type { AnyDb } from './helpers.js';

/**
 * A firm may let its API users log in with Basic credentials alone (no client_id and
 * client_secret), as the source system's clients do. The column names the partner application
 * such logins are issued through; null (the default) keeps section 5.5's rule.
 */
export const basicLoginApp: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('firms').addColumn('basic_login_app_id', 'integer').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('firms').dropColumn('basic_login_app_id').execute();
  },
};
