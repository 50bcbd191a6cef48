import type { Migration } from 'kysely';
import { type AnyDb, firmTable, index, withAudit, dropTables } from './helpers.js';

/**
 * The risk-profiling integration: the built-in partner's clients and their surveys, and
 * the firm of every client created at an external partner (so that a firm reads only its own).
 */
export const riskProfiling: Migration = {
  async up(db: AnyDb) {
    await withAudit(
      firmTable(db, 'risk_clients')
        .addColumn('name', 'text', (c) => c.notNull())
        // Trimmed, whitespace collapsed, lower-cased: names are unique in a firm on this key.
        .addColumn('name_key', 'text', (c) => c.notNull())
        .addColumn('household_id', 'integer', (c) => c.notNull().references('clients.id'))
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('created_by_user_id', 'integer', (c) => c.notNull().references('users.id'))
        // The questionnaire link's secret; kept (not digested) so the link can be shown again.
        .addColumn('survey_token', 'text', (c) => c.notNull())
        .addColumn('current_survey_id', 'integer'),
    ).execute();
    await index(db, 'risk_clients', ['firm_id', 'name_key'], true);
    await index(db, 'risk_clients', ['survey_token'], true);

    await firmTable(db, 'risk_surveys')
      .addColumn('risk_client_id', 'integer', (c) => c.notNull().references('risk_clients.id'))
      .addColumn('answers', 'text', (c) => c.notNull())
      .addColumn('points', 'integer', (c) => c.notNull())
      .addColumn('risk_score', 'integer', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('questionnaire_version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'risk_surveys', ['risk_client_id']);

    // An external partner's ids are its own; the platform remembers whose each one is.
    await firmTable(db, 'risk_partner_clients')
      .addColumn('partner_client_id', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .execute();
    await index(db, 'risk_partner_clients', ['partner_client_id'], true);
  },
  async down(db: AnyDb) {
    await dropTables(db, ['risk_clients', 'risk_partner_clients', 'risk_surveys']);
  },
};
