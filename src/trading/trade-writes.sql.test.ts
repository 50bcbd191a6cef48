/**
 * The bulk writes of a rebalance and a quick trade are built as SQL text per dialect (inserts of
 * fixed shapes on SQLite, `unnest` or COPY on PostgreSQL); what they send is checked in beside
 * this file (`__sql__/`), so a change to a write shows in the diff. After an intended change,
 * update the files with:
 *
 *   npx vitest run src/trading/trade-writes.sql.test.ts -u
 */
import { describe, expect, it } from 'vitest';
import { bulkWriteText } from '../../test/support/sql-snapshot.js';
import { messageWrite, type NewTrade, taxSummaryWrite, tradeRow, tradeWrite, transferWrite } from './trade-writes-repository.js';

const now = '2026-11-26T12:00:00.000Z';
const chunk = { firmId: 1, batchId: 2, instanceId: 3 };
const trade = (accountId: number, reason: string): NewTrade => ({ accountId, productId: 20, side: 'Buy', tradeType: 'Dollars', sharesMicros: 1_500_000, amountCents: 15_000, priceMicros: 100_000_000, reason });
// Three rows: SQLite writes them as a statement of two and one of one (power-of-two shapes).
const trades = [trade(10, 'Model "Growth"'), trade(11, 'tab\there'), trade(12, 'back\\slash')];

describe.each(['sqlite', 'postgres'] as const)('trade writes [%s]', (dialect) => {
  it('trades', async () => {
    await expect(bulkWriteText(dialect, tradeWrite(1, 3, trades.map(tradeRow), now), 'copy')).toMatchFileSnapshot(`__sql__/insert-trades.${dialect}.sql`);
  });
  it('tax-aware trades, with their lots and gains', async () => {
    const taxTrades = trades.map((t, i) => ({ ...t, side: 'Sell' as const, lots: i === 1 ? null : '[{"lotId":7,"sharesMicros":1500000}]', shortTermGainCents: 120, longTermGainCents: -40 }));
    await expect(bulkWriteText(dialect, tradeWrite(1, 3, taxTrades.map(tradeRow), now), 'copy')).toMatchFileSnapshot(`__sql__/insert-tax-trades.${dialect}.sql`);
  });
  it("a chunk's messages", async () => {
    const messages = [{ accountId: 10, severity: 'Warning' as const, code: 'NeedReview', message: 'drifted 6% from its model' }];
    await expect(bulkWriteText(dialect, messageWrite(chunk, messages, now), 'copy')).toMatchFileSnapshot(`__sql__/insert-batch-messages.${dialect}.sql`);
  });
  it("a chunk's sleeve transfers", async () => {
    const transfers = [{ registrationId: 5, accountId: 10, amountCents: -2_500_00, currentPct: 41.5, targetPct: 40, outOfBand: true }];
    await expect(bulkWriteText(dialect, transferWrite(chunk, transfers, now))).toMatchFileSnapshot(`__sql__/insert-sleeve-transfers.${dialect}.sql`);
  });
  it("a chunk's household tax summaries", async () => {
    const summaries = [{ householdId: 8, shortTermGainCents: 120, longTermGainCents: -40, harvestedLossCents: 0, washSaleMoves: 1, budgetCuts: 0 }];
    await expect(bulkWriteText(dialect, taxSummaryWrite(chunk, summaries), 'copy')).toMatchFileSnapshot(`__sql__/insert-batch-tax-summaries.${dialect}.sql`);
  });
});
