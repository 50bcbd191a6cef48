/**
 * Follows a rebalance batch until it is done, printing its progress: the example the README gives
 * for `GET {base_url}/v1/Trading/TradeGenerationStatus/{id}`.
 *
 *   TOKEN=<access token> npx tsx examples/follow-batch.ts <batchId>
 *
 * BASE_URL, the platform's address, defaults to http://localhost:8080/api (`npm start`'s).
 *
 * A batch's `itemsCompleted` grows a chunk of accounts at a time (REBALANCE_CHUNK_SIZE) up to
 * `totalItems`; `isDone` turns true when it is Complete or Failed.
 */
export interface BatchStatus {
  status: string;
  isDone: boolean;
  totalItems: number;
  itemsCompleted: number;
  errorCount: number;
  warningCount: number;
  tradeInstanceId?: number;
}

export async function followBatch(options: {
  batchId: number;
  /** Reads a platform path (e.g. `/v1/Trading/…`) and answers its JSON body. */
  read(path: string): Promise<BatchStatus>;
  onProgress(status: BatchStatus): void;
  intervalMs?: number;
}): Promise<BatchStatus> {
  let last = '';
  for (;;) {
    const status = await options.read(`/v1/Trading/TradeGenerationStatus/${options.batchId}`);
    const key = `${status.status} ${status.itemsCompleted}`;
    if (key !== last) options.onProgress(status);
    last = key;
    if (status.isDone) return status;
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 1000));
  }
}

async function main() {
  const batchId = Number(process.argv[2]);
  const token = process.env.TOKEN;
  const base = process.env.BASE_URL ?? 'http://localhost:8080/api';
  if (!Number.isInteger(batchId) || batchId < 1 || !token) {
    console.error('usage: TOKEN=<access token> [BASE_URL=http://localhost:8080/api] npx tsx examples/follow-batch.ts <batchId>');
    process.exit(2);
  }
  const final = await followBatch({
    batchId,
    read: async (path) => {
      const response = await fetch(`${base}${path}`, { headers: { authorization: `Session ${token}` } });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as BatchStatus;
    },
    onProgress: (s) => {
      const percent = s.totalItems === 0 ? 100 : Math.floor((100 * s.itemsCompleted) / s.totalItems);
      console.log(`${s.status.padEnd(8)} ${s.itemsCompleted}/${s.totalItems} accounts (${percent}%), ${s.errorCount} errors, ${s.warningCount} warnings`);
    },
  });
  // Trades come a page at a time (at most 1000; the next with $skip), the instance's tradeCount says how many.
  if (final.tradeInstanceId) console.log(`trades: ${base}/v1/Trading/TradeInstances/${final.tradeInstanceId}/Trades?$top=1000`);
  process.exit(final.status === 'Complete' ? 0 : 1);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
