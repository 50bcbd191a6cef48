// CSV as every import reads it (`wealth import` files, trade block uploads): Papa Parse for the
// grammar (quotes, quoted commas and line breaks, \n or \r\n), and on top what our readers need
// of each record: the line it starts on, its cells trimmed, blank lines skipped but counted, a
// leading byte order mark dropped, and the first broken quote reported at its line as the end of
// the readable part. Papa parses a 500,000-row positions file in a third of csv-parse's time.

import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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

/** Text read before the line ending is guessed, when no `\n` comes sooner (a file of `\r` endings). */
const GUESS_CHARS = 64 * 1024;

/**
 * The records of a text stream (a file opened with an encoding, so that no character is cut
 * between chunks; raw bytes are decoded as UTF-8) in batches of at least `size` rows but the last.
 * The stream is pulled, never pushed: a chunk is read only when the batch being filled needs it,
 * so while the consumer works on a batch (a database write) reading stops at the stream's own
 * buffer, and memory holds one batch, one chunk and the record in progress, whatever the file's
 * size or the consumer's speed. Rows before a broken quote are yielded, then CsvSyntaxError is
 * thrown; a read error is thrown as it is.
 */
export async function* csvRowBatches(input: Readable, size: number): AsyncGenerator<CsvRow[]> {
  const rows = new Rows();
  const decoder = new StringDecoder('utf8');
  let parser: Papa.Parser | undefined;
  // The text after the last complete record: what the parser holds without a record out of it.
  let held = '';
  let ready: CsvRow[] = [];

  /** Parses `held`; `last` when no more text comes, else the record it ends in is kept for later. */
  const parse = (last: boolean) => {
    if (!parser) {
      // Papa guesses \n, \r\n or \r from the text it is given, so it is given a whole line first.
      if (!last && !held.includes('\n') && held.length < GUESS_CHARS) return;
      const linebreak = Papa.parse(held.slice(0, GUESS_CHARS), { ...OPTIONS, preview: 1 }).meta.linebreak;
      parser = new Papa.Parser({ ...OPTIONS, newline: linebreak as '\n' | '\r\n' | '\r' });
    }
    const result = parser.parse(held, 0, !last) as Papa.ParseResult<string[]>;
    const broken = brokenQuote(result.errors);
    rows.take(result.data, broken?.row ?? result.data.length, ready);
    if (broken) throw new CsvSyntaxError(rows.nextLine, broken.message);
    held = last ? '' : held.slice(result.meta.cursor);
    // Papa keeps an unfinished record whole until its end comes (and reads it again with every
    // chunk): a quote left open early in a large file would hold the rest of the file.
    if (held.length > MAX_RECORD_CHARS) {
      throw new CsvSyntaxError(rows.nextLine, `a record runs past ${MAX_RECORD_CHARS / 1024 / 1024} MiB of text; is a quote left open?`);
    }
  };

  try {
    let failure: Error | undefined;
    try {
      for await (const chunk of input as AsyncIterable<string | Buffer>) {
        held += typeof chunk === 'string' ? chunk : decoder.write(chunk);
        parse(false);
        if (ready.length >= size) {
          const batch = ready;
          ready = [];
          yield batch;
        }
      }
      held += decoder.end();
      parse(true);
    } catch (error) {
      // The rows before the failure are the readable part of the file: they come first.
      failure = error instanceof Error ? error : new Error(String(error));
    }
    if (ready.length > 0) yield ready;
    if (failure) throw failure;
  } finally {
    input.destroy();
  }
}
