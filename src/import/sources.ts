import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { parse } from 'csv-parse/sync';

/** Entities an import may carry, in the order they are validated and written (parents first). */
export const ENTITIES = ['broker_dealers', 'representatives', 'products', 'clients', 'registrations', 'accounts', 'positions'] as const;
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
  values: Map<string, unknown>;
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
};

export const entityNamed = (name: string): Entity | undefined => ALIASES[normalize(name)];

/** Reads one file into rows; problems that make the file unreadable become issues instead. */
export async function readSource(file: string, issues: ImportIssue[]): Promise<SourceRow[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    issues.push({ file, line: 0, field: '(file)', message: `cannot read: ${(error as Error).message}` });
    return [];
  }
  const ext = extname(file).toLowerCase();
  const stem = basename(file, extname(file));
  if (ext === '.csv') return readCsv(file, stem, text, issues);
  if (ext === '.json') return readJson(file, stem, text, issues);
  issues.push({ file, line: 0, field: '(file)', message: `unsupported file type "${ext}": use .csv or .json` });
  return [];
}

function readCsv(file: string, stem: string, text: string, issues: ImportIssue[]): SourceRow[] {
  const entity = entityNamed(stem);
  if (!entity) {
    issues.push({ file, line: 0, field: '(file)', message: `file name does not name an entity; expected one of ${ENTITIES.join(', ')}` });
    return [];
  }
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parse(text, { bom: true, columns: true, skip_empty_lines: true, trim: true, info: true });
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 0;
    issues.push({ file, line, field: '(file)', message: `not valid CSV: ${(error as Error).message}` });
    return [];
  }
  // info.lines is the line a record ends on; count back over the newlines inside quoted values.
  return records.map(({ record, info }) => {
    const values = new Map<string, unknown>();
    let extraLines = 0;
    for (const [key, value] of Object.entries(record)) {
      values.set(normalize(key), value);
      extraLines += (value.match(/\n/g) ?? []).length;
    }
    return { file, line: info.lines - extraLines, entity, values };
  });
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
