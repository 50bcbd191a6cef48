import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, dropTables } from './helpers.js';

/** OAuth 2.0: authorization codes, refresh-token chains, sign-in flows and throttling. */
export const auth: Migration = {
  async up(db: AnyDb) {
    // A chain is every token descended from one authorization (code or login); replay revokes it.
    await db.schema.alterTable('access_tokens').addColumn('chain_id', 'text').execute();
    await index(db, 'access_tokens', ['chain_id']);

    await firmTable(db, 'authorization_codes')
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'integer', (c) => c.notNull().references('partner_apps.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'text')
      .addColumn('chain_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('redeemed_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    await firmTable(db, 'refresh_tokens')
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('client_id', 'integer', (c) => c.notNull().references('partner_apps.id'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
      .addColumn('chain_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'refresh_tokens', ['user_id', 'client_id']);
    await index(db, 'refresh_tokens', ['chain_id']);

    // The browser side of one sign-in: ties the CSRF token and the checked request to a cookie.
    await db.schema
      .createTable('oauth_flows')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('firm_id', 'integer', (c) => c.notNull().references('firms.id'))
      .addColumn('client_id', 'integer', (c) => c.notNull().references('partner_apps.id'))
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('state', 'text')
      .addColumn('code_challenge', 'text')
      .addColumn('csrf_token', 'text', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.references('users.id'))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    // Failed sign-ins per key (`user:<name>` or `ip:<address>`) within a window; not firm data.
    await db.schema
      .createTable('sign_in_failures')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('window_started_at', 'text', (c) => c.notNull())
      .addColumn('locked_until', 'text')
      .execute();
  },
  async down(db: AnyDb) {
    await dropTables(db, ['authorization_codes', 'oauth_flows', 'refresh_tokens', 'sign_in_failures']);
    await db.schema.dropIndex('access_tokens_chain_id_ix').execute();
    await db.schema.alterTable('access_tokens').dropColumn('chain_id').execute();
  },
};
