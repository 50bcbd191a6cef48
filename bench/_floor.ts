/**
 * The I/O floor of a rebalance, measured with the drivers directly (no Kysely, no engine): read
 * every position of the firm, then insert the trade rows a rebalance wrote (the same rows, in one
 * transaction that is rolled back). A rebalance cannot be faster than reading its inputs and
 * writing its outputs; the bench prints its time as a ratio to this.
 */
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

export interface Floor {
  readSeconds: number;
  writeSeconds: number;
  positions: number;
  trades: number;
}

const TRADE_COLUMNS = ['firm_id', 'trade_instance_id', 'account_id', 'product_id', 'side', 'trade_type', 'shares_micros', 'amount_cents', 'price_micros', 'reason', 'status', 'created_at'];

export function sqliteFloor(file: string, firmId: number, instanceId: number): Floor {
  const db = new SqliteDatabase(file);
  try {
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    const trades = db.prepare(`select ${TRADE_COLUMNS.join(', ')} from trades where trade_instance_id = ?`).raw().all(instanceId) as unknown[][];
    let started = performance.now();
    let positions = 0;
    for (const row of db.prepare('select account_id, product_id, shares_micros, cost_cents from positions where firm_id = ?').raw().iterate(firmId)) if (row) positions++;
    const readSeconds = (performance.now() - started) / 1000;
    const insert = db.prepare(`insert into trades (${TRADE_COLUMNS.join(', ')}) values (${TRADE_COLUMNS.map(() => '?').join(', ')})`);
    started = performance.now();
    db.exec('begin');
    for (const row of trades) insert.run(row);
    const writeSeconds = (performance.now() - started) / 1000;
    db.exec('rollback');
    return { readSeconds, writeSeconds, positions, trades: trades.length };
  } finally {
    db.close();
  }
}

export async function postgresFloor(url: string, firmId: number, instanceId: number): Promise<Floor> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const trades = (await client.query({ text: `select ${TRADE_COLUMNS.join(', ')} from trades where trade_instance_id = $1`, values: [instanceId], rowMode: 'array' })).rows as unknown[][];
    const types = new Map(
      (await client.query<{ column_name: string; data_type: string }>(`select column_name, data_type from information_schema.columns where table_name = 'trades' and table_schema = current_schema()`)).rows.map((r) => [r.column_name, r.data_type]),
    );
    let started = performance.now();
    const positions = (await client.query({ text: 'select account_id, product_id, shares_micros, cost_cents from positions where firm_id = $1', values: [firmId], rowMode: 'array' })).rowCount ?? 0;
    const readSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await client.query('begin');
    const step = 50_000;
    for (let i = 0; i < trades.length; i += step) {
      const part = trades.slice(i, i + step);
      await client.query(
        `insert into trades (${TRADE_COLUMNS.join(', ')}) select * from unnest(${TRADE_COLUMNS.map((c, k) => `$${k + 1}::${types.get(c)}[]`).join(', ')})`,
        TRADE_COLUMNS.map((_, k) => part.map((r) => r[k])),
      );
    }
    const writeSeconds = (performance.now() - started) / 1000;
    await client.query('rollback');
    return { readSeconds, writeSeconds, positions, trades: trades.length };
  } finally {
    await client.end();
  }
}
