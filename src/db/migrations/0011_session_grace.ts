import type { Migration } from 'kysely';
import type { AnyDb } from './helpers.js';

/**
 * A used refresh token keeps its successor pair sealed with the token itself (AES-GCM under a key
 * derived from it): a client that sent the same token twice at once (a retry, two tabs) gets the
 * same pair within the grace period, and nobody without the old token can read it.
 */
export const sessionGrace: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('refresh_tokens').addColumn('successor_sealed', 'text').execute();
  },
  async down(db: AnyDb) {
    await db.schema.alterTable('refresh_tokens').dropColumn('successor_sealed').execute();
  },
};
