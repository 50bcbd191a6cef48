import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvRow, CsvSyntaxError, csvRowBatches, MAX_RECORD_CHARS, parseCsv } from './csv.js';

const rowsOf = (text: string) => parseCsv(text).map(({ line, cells }) => [line, cells]);

/** The text in chunks of `chunk` characters, as a file stream delivers it. */
function streamOf(text: string, chunk: number): Readable {
  const parts: string[] = [];
  for (let i = 0; i < text.length; i += chunk) parts.push(text.slice(i, i + chunk));
  return Readable.from(parts, { objectMode: false });
}

async function streamed(text: string, chunk: number, size: number): Promise<{ batches: CsvRow[][]; error?: unknown }> {
  const batches: CsvRow[][] = [];
  try {
    for await (const batch of csvRowBatches(streamOf(text, chunk), size)) batches.push(batch);
    return { batches };
  } catch (error) {
    return { batches, error };
  }
}

describe('parseCsv', () => {
  it('numbers each record by the line it starts on, across quoted line breaks, blank lines and \\r\\n', () => {
    expect(rowsOf('a,b\n"x\ny",2\n\n3,4\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['x\ny', '2']],
      [5, ['3', '4']],
    ]);
    expect(rowsOf('a,b\r\n1,2\r\n\r\n3,4\r\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['1', '2']],
      [4, ['3', '4']],
    ]);
  });

  it('drops a byte order mark, trims cells, keeps quoted commas and short or long rows as they are', () => {
    expect(rowsOf('\uFEFFname , ticker\n Ann ,"A, B" \n1\n1,2,3')).toEqual([
      [1, ['name', 'ticker']],
      [2, ['Ann', 'A, B']],
      [3, ['1']],
      [4, ['1', '2', '3']],
    ]);
  });

  it('takes a quote as quoting only at the start of a cell, as RFC 4180, Excel and Python read it', () => {
    // A space before the quote makes it text: the row then has more cells than its header.
    expect(rowsOf('a,b\nAnn, "A, B"\n')).toEqual([
      [1, ['a', 'b']],
      [2, ['Ann', '"A', 'B"']],
    ]);
  });

  it('reports an unterminated or malformed quote at the line of its record', () => {
    for (const [text, line] of [
      ['a,b\n1,2\n"open,3\n4,5\n', 3],
      ['a,b\n1,2\n"x"y,3\n4,5\n', 3],
      ['a,b\n"two\nlines",1\n"x"y,3\n', 4],
    ] as const) {
      const error = (() => {
        try {
          parseCsv(text);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(CsvSyntaxError);
      expect((error as CsvSyntaxError).line).toBe(line);
    }
  });
});

describe('csvRowBatches', () => {
  it('gives the same rows as parseCsv, whatever the chunks, in batches of at least the size asked', async () => {
    const text = 'h1,h2\n' + Array.from({ length: 3000 }, (_, i) => (i % 97 === 0 ? `"multi\nline ${i}",${i}\n\n` : `row ${i},${i}\n`)).join('');
    const whole = parseCsv(text);
    for (const chunk of [7, 1000, 65536]) {
      const { batches, error } = await streamed(text, chunk, 500);
      expect(error).toBeUndefined();
      expect(batches.flat()).toEqual(whole);
      for (const batch of batches.slice(0, -1)) expect(batch.length).toBeGreaterThanOrEqual(500);
    }
  });

  it('yields the rows before a broken quote, then throws it with its line', async () => {
    const good = Array.from({ length: 20000 }, (_, i) => `r${i},${i}\n`).join('');
    const { batches, error } = await streamed(`a,b\n${good}"x"y,1\nafter,2\n`, 4096, 5000);
    expect(batches.flat()).toHaveLength(20001);
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBe(20002);
  });

  it('refuses a record longer than MAX_RECORD_CHARS (a quote left open) at its line, without holding the rest of the file', async () => {
    const chunk = 'x'.repeat(64 * 1024);
    const chunks = Math.ceil(MAX_RECORD_CHARS / chunk.length) + 8;
    let read = 0;
    const input = Readable.from(
      (function* () {
        yield 'a,b\n1,2\n"open';
        for (let i = 0; i < chunks; i++, read++) yield chunk;
      })(),
      { objectMode: false },
    );
    const batches: CsvRow[][] = [];
    const error = await (async () => {
      try {
        for await (const batch of csvRowBatches(input, 10)) batches.push(batch);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBe(3);
    expect((error as Error).message).toMatch(/quote left open/);
    expect(batches.flat().map((r) => r.cells)).toEqual([['a', 'b'], ['1', '2']]);
    expect(read).toBeLessThan(chunks);
  });

  it('stops reading when the consumer stops', async () => {
    const input = streamOf(Array.from({ length: 50000 }, (_, i) => `r${i},${i}\n`).join(''), 4096);
    for await (const batch of csvRowBatches(input, 1000)) {
      expect(batch.length).toBeGreaterThan(0);
      break;
    }
    expect(input.destroyed).toBe(true);
  });

  it('reads a file of several MiB whole for a consumer slower than the reader, reading only as far as the batch being filled', async () => {
    // Over 3 MiB in 64 KiB chunks (a file stream's size): three times the unfinished-record guard and
    // some sixty chunks, with quoted line breaks and a slow consumer (a database round trip per batch).
    const rowCount = 80_000;
    const lines = Array.from({ length: rowCount }, (_, i) => (i % 1000 === 0 ? `"acct ${i}\nsecond line",${'x'.repeat(30)},${i}` : `acct ${i},${'y'.repeat(30)},${i}`));
    const text = `name,filler,n\n${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThan(3 * MAX_RECORD_CHARS);
    const chunk = 64 * 1024;
    let handedOut = 0;
    const input = Readable.from(
      (function* () {
        for (let i = 0; i < text.length; i += chunk, handedOut = Math.min(i, text.length)) yield text.slice(i, i + chunk);
      })(),
      { objectMode: false },
    );
    let consumed = 0;
    let furthestAhead = 0;
    const seen: number[] = [];
    for await (const batch of csvRowBatches(input, 2000)) {
      for (const row of batch) {
        consumed += row.cells.join(',').length + 1;
        if (row.line > 1) seen.push(Number(row.cells[2]));
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
      // What the reader took beyond what the consumer has: the batch's rows, the stream's buffer and a chunk.
      furthestAhead = Math.max(furthestAhead, handedOut - consumed);
    }
    expect(seen).toEqual(Array.from({ length: rowCount }, (_, i) => i));
    expect(furthestAhead).toBeLessThan(2000 * 60 + 4 * chunk);
  });

  it('reads a file stream of raw bytes, a character cut between chunks included', async () => {
    const text = 'name,city\nZoë,Málaga\nÅsa,Zürich\n';
    const bytes = Buffer.from(text, 'utf8');
    const input = Readable.from(
      Array.from({ length: bytes.length }, (_, i) => bytes.subarray(i, i + 1)),
      { objectMode: true },
    );
    const rows: CsvRow[] = [];
    for await (const batch of csvRowBatches(input, 1)) rows.push(...batch);
    expect(rows.map((r) => r.cells)).toEqual(parseCsv(text).map((r) => r.cells));
  });

  it('reads \\r\\n and \\r line endings as parseCsv does, whatever the first chunk holds', async () => {
    for (const linebreak of ['\r\n', '\r']) {
      const text = ['a,b', '1,2', '"x', 'y",3', '4,5'].join(linebreak) + linebreak;
      const { batches, error } = await streamed(text, 4, 1);
      expect(error).toBeUndefined();
      expect(batches.flat()).toEqual(parseCsv(text));
      expect(batches.flat().map((r) => r.cells)).toEqual([['a', 'b'], ['1', '2'], [`x${linebreak}y`, '3'], ['4', '5']]);
    }
  });

  it('reports a quote left open in a large file at its line, after every row before it', async () => {
    const good = Array.from({ length: 60_000 }, (_, i) => `r${i},${'z'.repeat(40)}`).join('\n');
    const { batches, error } = await streamed(`a,b\n${good}\n"open,1\n${good}\n`, 64 * 1024, 5000);
    expect(batches.flat()).toHaveLength(60_001);
    expect(error).toBeInstanceOf(CsvSyntaxError);
    expect((error as CsvSyntaxError).line).toBe(60_002);
  });

  it('reads any well-formed CSV back cell for cell (property)', async () => {
    // Cells without surrounding spaces (cells are trimmed) and rows not all blank (blank lines are skipped).
    const cell = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\n', 'é', '1') }).map((s) => s.trim());
    const row = fc.array(cell, { minLength: 2, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 50 }), async (rows, chunk) => {
        const quote = (c: string) => `"${c.replaceAll('"', '""')}"`;
        const text = rows.map((r) => r.map(quote).join(',')).join('\n');
        const { batches, error } = await streamed(text, chunk, 3);
        expect(error).toBeUndefined();
        expect(batches.flat().map((r) => r.cells)).toEqual(rows);
      }),
      { numRuns: 200 },
    );
  });
});
