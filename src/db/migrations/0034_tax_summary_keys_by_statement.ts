import { type StatementCheckedKey, keysCheckedByStatement } from './statement-checked-keys.js';

/**
 * PostgreSQL: a tax-aware chunk writes one household tax summary a household, about 1,200 rows a
 * chunk of an advisory book, and each row's two foreign-key checks locked the same batch and firm
 * rows again, concurrently with the other chunks' writers: 12,000 summaries took 172 ms to insert
 * with the checks against 53 ms without, and in a rebalance of 30,000 accounts the summaries'
 * `COPY` was 0.46 s of the database's time. Checked once a statement, as batch messages are
 * (0032_statement_checked_keys.ts, docs/decisions/statement-checked-keys.md).
 */
export const TAX_SUMMARY_KEYS: StatementCheckedKey[] = [
  { name: 'batch_tax_summaries_batch_id_fkey', table: 'batch_tax_summaries', columns: ['batch_id'], parent: 'batches', parentColumns: ['id'], onDelete: 'no action' },
  { name: 'batch_tax_summaries_firm_id_fkey', table: 'batch_tax_summaries', columns: ['firm_id'], parent: 'firms', parentColumns: ['id'], onDelete: 'no action' },
];

export const taxSummaryKeysByStatement = keysCheckedByStatement(TAX_SUMMARY_KEYS);
