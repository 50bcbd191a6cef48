import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { drawIds, type IdMap, numbered, sequenceOf, type Tables } from '../seed/repository.js';
import type { TableName } from '../seed/rows.js';

/**
 * PostgreSQL: the ids of an import's next write, drawn while this write runs.
 *
 * A write's rows are built from their ids, so a write waited for its draw, and a draw sent while
 * the write before it ran waited behind that write's statements on the connection: the database
 * then sat idle from the end of one write until this process had the next drawn, built and sent
 * (a quarter of an import of 500,000 positions, sampled from pg_stat_activity). Drawn a write
 * ahead, the next write is built and queued while the one before it runs.
 *
 * The ids are drawn for the tables the write in hand numbers, as many as it holds rows and a
 * quarter more (a write's size varies by up to a batch of rows, and a write short of ids would
 * draw them behind the write running), and kept until a later write takes them. Those no write
 * takes are left unused when the import ends: a gap in the table's ids of at most a write's rows
 * and a quarter, as a rolled back insert leaves one.
 */
export class IdsAhead {
  readonly #drawn = new Map<TableName, number[]>();
  readonly #drawing = new Map<TableName, Promise<void>>();
  /** Looked up once: a draw ahead is one statement, sent before the write's (a lookup first would put the draw behind them). */
  readonly #sequences = new Map<TableName, string>();

  constructor(private readonly conn: Kysely<Database>) {}

  /** Ids for the rows of every table of `tables` that are numbered, from those drawn ahead, drawing now what is missing. */
  async take(tables: Tables): Promise<IdMap> {
    const taken: IdMap = {};
    for (const [table, count] of numberedCounts(tables)) {
      await this.#drawing.get(table);
      if (!this.#sequences.has(table)) this.#sequences.set(table, await sequenceOf(this.conn, table));
      const drawn = this.#drawn.get(table) ?? [];
      const all = drawn.length < count ? drawn.concat(await drawIds(this.conn, this.#sequences.get(table)!, count - drawn.length)) : drawn;
      taken[table] = all.slice(0, count);
      this.#drawn.set(table, all.slice(count));
    }
    return taken;
  }

  /**
   * Starts drawing, for every numbered table of `tables`, the ids of a write of the same size and
   * a quarter, less those already drawn: sent now, the draw runs before the statements queued after it.
   */
  drawAhead(tables: Tables): void {
    for (const [table, count] of numberedCounts(tables)) {
      const missing = Math.ceil(count * 1.25) - (this.#drawn.get(table)?.length ?? 0);
      const sequence = this.#sequences.get(table);
      // take looked the sequence up for every table it gave ids to.
      if (missing <= 0 || this.#drawing.has(table) || sequence === undefined) continue;
      const drawing = drawIds(this.conn, sequence, missing).then((ids) => {
        this.#drawn.set(table, (this.#drawn.get(table) ?? []).concat(ids));
      });
      const settled = drawing.finally(() => this.#drawing.delete(table));
      // A failed draw fails the take that waits for it; until then it is not unhandled.
      settled.catch(() => {});
      this.#drawing.set(table, settled);
    }
  }

  /** Settles once every draw sent has: nothing of the import may still be queued when its transaction ends. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#drawing.values()]);
  }
}

/** The tables of `tables` whose rows get ids ahead of their write (those other rows may point at), with their row counts. */
function numberedCounts(tables: Tables): [TableName, number][] {
  return (Object.entries(tables) as [TableName, readonly object[] | undefined][])
    .filter(([table, rows]) => (rows?.length ?? 0) > 0 && numbered(table))
    .map(([table, rows]) => [table, rows!.length]);
}
