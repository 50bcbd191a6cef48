import { constants, createReadStream } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { CsvSyntaxError, csvRowBatches } from '../shared/csv.js';

/** Entities an import may carry, in the order they are validated and written (parents first). */
export const ENTITIES = ['broker_dealers', 'representatives', 'products', 'clients', 'registrations', 'accounts', 'positions', 'tax_lots', 'substitutions', 'prices', 'account_values'] as const;
export type Entity = (typeof ENTITIES)[number];

export interface ImportIssue {
  file: string;
  /** 1-based line of the file where the bad row (or the unreadable part) starts. */
  line: number;
  field: string;
  message: string;
}

export interface SourceRow {
  file: string;
  line: number;
  entity: Entity;
  /** Values by normalized column name (see `normalize`). */
  values: RowValues;
}

/** What a row's reader needs of its values: a Map (JSON rows) or a CSV record under its header. */
export interface RowValues {
  get(name: string): unknown;
  keys(): Iterable<string>;
}

/**
 * A CSV record read through its file's header: one shared name -> column index for every row of
 * the file instead of a Map built per row (hundreds of thousands of them, and their garbage).
 */
export class CsvRecord implements RowValues {
  constructor(
    readonly header: CsvHeader,
    private readonly cells: string[],
  ) {}

  get(name: string): unknown {
    const i = this.header.index.get(name);
    return i === undefined ? undefined : this.cells[i];
  }

  keys(): Iterable<string> {
    return this.header.names;
  }
}

export class CsvHeader {
  readonly index = new Map<string, number>();
  constructor(readonly names: string[]) {
    // A repeated column keeps its first cell, as a Map built from the record would keep its last:
    // either way the file is ambiguous, and the reader reports nothing else about it.
    names.forEach((name, i) => {
      if (!this.index.has(name)) this.index.set(name, i);
    });
  }
}

/** `first_name`, `firstName` and `First Name` all name one column. */
export const normalize = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

const ALIASES: Record<string, Entity> = {
  brokerdealers: 'broker_dealers',
  representatives: 'representatives',
  reps: 'representatives',
  products: 'products',
  clients: 'clients',
  households: 'clients',
  registrations: 'registrations',
  accounts: 'accounts',
  positions: 'positions',
  taxlots: 'tax_lots',
  lots: 'tax_lots',
  substitutions: 'substitutions',
  prices: 'prices',
  accountvalues: 'account_values',
};

export const entityNamed = (name: string): Entity | undefined => ALIASES[normalize(name)];

/** JSON files are read whole (their line numbers need the text); CSV streams at any size. */
export const MAX_JSON_BYTES = 64 * 1024 * 1024;

/**
 * One input file, opened but not yet read: which entities it carries and how to read its rows.
 * A CSV file names its one entity and streams; a JSON file is parsed whole at open.
 */
export interface Source {
  file: string;
  entities: Set<Entity>;
  /** The file's rows of one entity, a batch at a time, in file order. */
  batches(entity: Entity, size: number): AsyncGenerator<SourceRow[]>;
}

/** Opens one file; problems that make the file unreadable become issues and no source. */
export async function openSource(file: string, issues: ImportIssue[]): Promise<Source | undefined> {
  let size: number;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new Error('not a file');
    size = info.size;
    await access(file, constants.R_OK);
  } catch (error) {
    issues.push({ file, line: 0, field: '(file)', message: `cannot read: ${(error as Error).message}` });
    return undefined;
  }
  const ext = extname(file).toLowerCase();
  const stem = basename(file, extname(file));
  if (ext === '.csv') {
    const entity = entityNamed(stem);
    if (!entity) {
      issues.push({ file, line: 0, field: '(file)', message: `file name does not name an entity; expected one of ${ENTITIES.join(', ')}` });
      return undefined;
    }
    return { file, entities: new Set([entity]), batches: (_entity, batchSize) => csvBatches(file, entity, batchSize, issues) };
  }
  if (ext === '.json') {
    if (size > MAX_JSON_BYTES) {
      issues.push({ file, line: 0, field: '(file)', message: `JSON files are read whole and may hold at most ${MAX_JSON_BYTES / 1024 / 1024} MiB; give large tables as CSV` });
      return undefined;
    }
    const rows = readJson(file, stem, await readFile(file, 'utf8'), issues);
    const byEntity = new Map<Entity, SourceRow[]>();
    for (const row of rows) {
      const list = byEntity.get(row.entity);
      if (list) list.push(row);
      else byEntity.set(row.entity, [row]);
    }
    return {
      file,
      entities: new Set(byEntity.keys()),
      async *batches(entity, batchSize) {
        const list = byEntity.get(entity) ?? [];
        for (let i = 0; i < list.length; i += batchSize) yield list.slice(i, i + batchSize);
      },
    };
  }
  issues.push({ file, line: 0, field: '(file)', message: `unsupported file type "${ext}": use .csv or .json` });
  return undefined;
}

/**
 * Streams a CSV file in batches (shared/csv.ts): memory holds about one batch, whatever the
 * file's size. A file that stops being valid CSV part-way is one issue at the line where it broke;
 * the rows before it were already validated and are kept for reporting.
 */
async function* csvBatches(file: string, entity: Entity, size: number, issues: ImportIssue[]): AsyncGenerator<SourceRow[]> {
  let header: CsvHeader | undefined;
  try {
    for await (const rows of csvRowBatches(createReadStream(file, { encoding: 'utf8' }), size)) {
      const batch: SourceRow[] = [];
      for (const { line, cells } of rows) {
        if (!header) {
          header = new CsvHeader(cells.map(normalize));
          continue;
        }
        // A short or long row is that row's problem, not the end of the file.
        if (cells.length !== header.names.length) {
          issues.push({ file, line, field: '(row)', message: `has ${cells.length} fields; the header names ${header.names.length}` });
          continue;
        }
        batch.push({ file, line, entity, values: new CsvRecord(header, cells) });
      }
      if (batch.length > 0) yield batch;
    }
  } catch (error) {
    const line = error instanceof CsvSyntaxError ? error.line : 0;
    issues.push({ file, line, field: '(file)', message: `not valid CSV: ${(error as Error).message}` });
  }
}

function readJson(file: string, stem: string, text: string, issues: ImportIssue[]): SourceRow[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    issues.push({ file, line: 0, field: '(file)', message: `not valid JSON: ${(error as Error).message}` });
    return [];
  }
  const lines = elementLines(text);
  const rows: SourceRow[] = [];
  const take = (entity: Entity, items: unknown[], itemLines: number[]) => {
    items.forEach((item, i) => {
      const line = itemLines[i] ?? 0;
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        issues.push({ file, line, field: '(row)', message: 'each row must be a JSON object' });
        return;
      }
      const values = new Map<string, unknown>(Object.entries(item).map(([k, v]) => [normalize(k), v]));
      rows.push({ file, line, entity, values });
    });
  };
  if (Array.isArray(data)) {
    const entity = entityNamed(stem);
    if (!entity) issues.push({ file, line: 1, field: '(file)', message: `a JSON array needs a file name naming an entity (${ENTITIES.join(', ')})` });
    else take(entity, data, lines.root);
  } else if (data !== null && typeof data === 'object') {
    for (const [key, items] of Object.entries(data)) {
      const entity = entityNamed(key);
      const line = lines.keys.get(key) ?? 1;
      if (!entity) issues.push({ file, line, field: key, message: `unknown entity; expected one of ${ENTITIES.join(', ')}` });
      else if (!Array.isArray(items)) issues.push({ file, line, field: key, message: 'must be an array of rows' });
      else take(entity, items, lines.elements.get(key) ?? []);
    }
  } else {
    issues.push({ file, line: 1, field: '(file)', message: 'must hold an object of entity arrays or an array of rows' });
  }
  return rows;
}

/**
 * Line numbers of the rows of a JSON file, which JSON.parse does not keep: the elements of a
 * root array, or of each array under a root key, in document order.
 */
export function elementLines(text: string): { root: number[]; keys: Map<string, number>; elements: Map<string, number[]> } {
  const root: number[] = [];
  const keys = new Map<string, number>();
  const elements = new Map<string, number[]>();
  const stack: string[] = [];
  let line = 1;
  let rootKey: string | null = null;
  let previous = '';
  const valueStarts = () => {
    const top = stack[stack.length - 1];
    if (top !== '[' || (previous !== '[' && previous !== ',')) return;
    if (stack.length === 1) root.push(line);
    else if (stack.length === 2 && stack[0] === '{' && rootKey !== null) {
      const list = elements.get(rootKey) ?? [];
      list.push(line);
      elements.set(rootKey, list);
    }
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '\n') line++;
    if (/\s/.test(ch)) continue;
    if (ch === '"') {
      valueStarts();
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const value = text.slice(i, j + 1);
      i = j;
      // A string right after '{' or ',' inside the root object is one of its keys.
      if (stack.length === 1 && stack[0] === '{' && (previous === '{' || previous === ',')) {
        rootKey = JSON.parse(value) as string;
        keys.set(rootKey, line);
      }
      previous = '"';
      continue;
    }
    if (ch === '{' || ch === '[') {
      valueStarts();
      stack.push(ch);
    } else if (ch === '}' || ch === ']') stack.pop();
    else if (ch !== ',' && ch !== ':' && previous !== 'scalar') {
      valueStarts();
      previous = 'scalar';
      continue;
    } else if (ch !== ',' && ch !== ':') continue;
    previous = ch;
  }
  return { root, keys, elements };
}
