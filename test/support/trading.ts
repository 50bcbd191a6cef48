import type { Static } from 'typebox';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { SleeveTransferRecord } from '../../src/book/sleeves/schemas.js';
import type { BatchMessage, BatchStatus, TradeRecord } from '../../src/trading/schemas.js';

/** A trade as `GET /Trading/TradeInstances/{id}/Trades` answers it: the route's own schema. */
export type TradeOut = Static<typeof TradeRecord>;
/** A batch as `GET /Trading/TradeGenerationStatus/{id}` answers it. */
export type BatchStatusOut = Static<typeof BatchStatus> & { tradeInstanceId: number };

/**
 * Generating trades and reading them back through the trading API, as every suite that
 * rebalances does: `generate` posts a Rebalance of accounts (overridable fields in `request`) and
 * answers the batch id; `tradesOf` reads a finished batch's trades; `rebalance` does both;
 * `messageOf` and `transfersOf` read a batch's message and its instance's sleeve transfers.
 */
export function tradingCalls(t: { app: FastifyInstance }, authorization: () => string) {
  const headers = () => ({ authorization: authorization() });
  const generate = async (request: object, wait = true): Promise<number> => {
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/Trading/GenerateTrades${wait ? '?wait=true' : ''}`,
      payload: { routine: 'Rebalance', entity: 'Account', ...request },
      headers: headers(),
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<number>();
  };
  const read = async <T>(url: string): Promise<T> => {
    const response = await t.app.inject({ url, headers: headers() });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json<T>();
  };
  const status = (batchId: number) => read<BatchStatusOut>(`/api/Trading/TradeGenerationStatus/${batchId}`);
  const messageOf = (batchId: number) => read<Static<typeof BatchMessage>>(`/api/Trading/TradeGenerationStatus/${batchId}/Message`);
  const transfersOf = (instanceId: number) => read<Static<typeof SleeveTransferRecord>[]>(`/api/Trading/TradeInstances/${instanceId}/SleeveTransfers`);
  const tradesOf = async (batchId: number, { complete = false } = {}): Promise<TradeOut[]> => {
    const batch = await status(batchId);
    if (complete) expect(batch.status).toBe('Complete');
    return (await t.app.inject({ url: `/api/Trading/TradeInstances/${batch.tradeInstanceId}/Trades`, headers: headers() })).json<TradeOut[]>();
  };
  const rebalance = async (request: object): Promise<TradeOut[]> => tradesOf(await generate(request), { complete: true });
  return { generate, status, tradesOf, rebalance, messageOf, transfersOf };
}

/** A trade as one readable row, for scenario assertions: `SELL 12 100 = 20000`. */
export const tradeRow = (x: Pick<TradeOut, 'action' | 'productId' | 'shares' | 'amount'>) => `${x.action} ${x.productId} ${x.shares} = ${x.amount}`;
