// CSV as every import reads it (`wealth import` files, trade block uploads): Papa Parse for the
// grammar (quotes, quoted commas and line breaks, \n or \r\n), and on top what our readers need
// of each record: the line it starts on, its cells trimmed, blank lines skipped but counted, a
// leading byte order mark dropped, and the first broken quote reported at its line as the end of
// the readable part. Papa parses a 500,000-row positions file in a third of csv-parse's time.

import type { Readable } from 'node:stream';
import Papa from 'papaparse';

export interface CsvRow {
  /** 1-based line of the file where the record starts. */
  line: number;
  cells: string[];
}

/** The text stops being CSV at `line` (a quote left open, or a closing quote not followed by a delimiter). */
export class CsvSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

// Papa's own delimiter guessing is for pasted text; our files are comma-separated by definition.
const OPTIONS = { delimiter: ',', skipEmptyLines: false } as const;

/**
 * The longest record a stream may hold, in characters: longer is taken for a quote left open. Our
 * rows are a few hundred characters (text fields hold at most 200); Papa also reads an unfinished
 * record again with every chunk, so its cost grows with the square of its length.
 */
export const MAX_RECORD_CHARS = 1024 * 1024;

/** Numbers Papa's records by the lines they start on, across the chunks of one file. */
class Rows {
  private line = 1;

  /** The line the next record starts on. */
  get nextLine(): number {
    return this.line;
  }

  /** Appends `records[0, upTo)` to `out`. */
  take(records: string[][], upTo: number, out: CsvRow[]): void {
    for (let i = 0; i < upTo; i++) {
      const cells = records[i] as string[];
      const line = this.line;
      this.line++;
      for (const cell of cells) for (let at = cell.indexOf('\n'); at >= 0; at = cell.indexOf('\n', at + 1)) this.line++;
      if (line === 1 && cells.length > 0) cells[0] = (cells[0] as string).replace(/^\uFEFF/, '');
      if (cells.length === 1 && (cells[0] as string).trim() === '') continue;
      for (let j = 0; j < cells.length; j++) cells[j] = (cells[j] as string).trim();
      out.push({ line, cells });
    }
  }
}

const brokenQuote = (errors: Papa.ParseError[]) => errors.find((e) => e.type === 'Quotes');

/** Every record of `text`; throws CsvSyntaxError at the first broken quote. */
export function parseCsv(text: string): CsvRow[] {
  const result = Papa.parse<string[]>(text, OPTIONS);
  const broken = brokenQuote(result.errors);
  const numbered = new Rows();
  const out: CsvRow[] = [];
  numbered.take(result.data, broken?.row ?? result.data.length, out);
  if (broken) throw new CsvSyntaxError(numbered.nextLine, broken.message);
  return out;
}

/**
 * The records of a text stream (a file opened with an encoding, so that no character is cut
 * between chunks) in batches of at least `size` rows but the last: reading pauses while a batch
 * waits, so memory holds about one batch whatever the file's size. Rows before a broken quote are
 * yielded, then CsvSyntaxError is thrown; a read error is thrown as it is.
 */
export async function* csvRowBatches(input: Readable, size: number): AsyncGenerator<CsvRow[]> {
  const rows = new Rows();
  let ready: CsvRow[] = [];
  let ended = false;
  let failure: Error | undefined;
  let parser: Papa.Parser | undefined;
  let wake: (() => void) | undefined;
  const signal = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  // Papa keeps an unfinished record whole until its end comes: a quote left open early in a large
  // file would hold the rest of the file in memory. Text read without a record coming out of it
  // is counted, and past MAX_RECORD_CHARS the file is refused at the line of that record.
  let unfinished = 0;
  input.on('data', (text: string) => {
    unfinished += text.length;
    if (unfinished <= MAX_RECORD_CHARS || ended) return;
    failure = new CsvSyntaxError(rows.nextLine, `a record runs past ${MAX_RECORD_CHARS / 1024 / 1024} MiB of text; is a quote left open?`);
    ended = true;
    parser?.abort();
    input.destroy();
    signal();
  });
  Papa.parse<string[]>(input, {
    ...OPTIONS,
    chunk(result, p) {
      parser = p;
      if (ended) return;
      if (result.data.length > 0) unfinished = 0;
      const broken = brokenQuote(result.errors);
      rows.take(result.data, broken?.row ?? result.data.length, ready);
      if (broken) {
        failure = new CsvSyntaxError(rows.nextLine, broken.message);
        ended = true;
        p.abort();
        signal();
      } else if (ready.length >= size) {
        p.pause();
        signal();
      }
    },
    complete() {
      ended = true;
      signal();
    },
    error(error) {
      failure ??= error;
      ended = true;
      signal();
    },
  });
  try {
    for (;;) {
      if (ready.length >= size || (ended && ready.length > 0)) {
        const batch = ready;
        ready = [];
        yield batch;
        continue;
      }
      if (failure) throw failure;
      if (ended) return;
      await new Promise<void>((resolve) => {
        wake = resolve;
        parser?.resume();
      });
    }
  } finally {
    if (!ended) parser?.abort();
    input.destroy();
  }
}
