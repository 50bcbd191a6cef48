import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, tablesOf } from '../../test/support/databases.js';
import type { Db } from './database.js';

/**
 * `schema.ts` is written by hand beside the migrations; nothing else would notice when the two
 * drift apart (a column added to one only, a nullable column typed as always present). This test
 * reads the `Database` interface with the TypeScript compiler and compares it, table by table and
 * column by column, with what the migrations create on a fresh database of each dialect.
 */

type Kind = 'number' | 'string';
interface DeclaredColumn {
  kind: Kind;
  nullable: boolean;
}

function declaredTables(): Map<string, Map<string, DeclaredColumn>> {
  const file = fileURLToPath(new URL('./schema.ts', import.meta.url));
  const program = ts.createProgram([file], { strict: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const database = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'Database',
  )!;
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  for (const table of checker.getTypeAtLocation(database).getProperties()) {
    const columns = new Map<string, DeclaredColumn>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      columns.set(column.name, describeColumn(checker, checker.getTypeOfSymbol(column)));
    }
    tables.set(table.name, columns);
  }
  return tables;
}

/** Kysely's `Generated<T>` and `ColumnType<S, I, U>` carry the selected type as `__select__`. */
function describeColumn(checker: ts.TypeChecker, type: ts.Type): DeclaredColumn {
  const select = type.getProperty('__select__');
  const selected = select ? checker.getTypeOfSymbol(select) : type;
  const members = selected.isUnion() ? selected.types : [selected];
  const nullable = members.some((member) => member.flags & ts.TypeFlags.Null);
  const numeric = members.every((member) => member.flags & (ts.TypeFlags.NumberLike | ts.TypeFlags.Null));
  return { kind: numeric ? 'number' : 'string', nullable };
}

const numericTypes = /^(integer|int2|int4|int8|bigint|smallint|real|double precision|float4|float8|numeric)$/i;

/**
 * SQLite's full-text search tables (migration 0026) and the shadow tables FTS5 keeps beside each:
 * an index of SQLite's own, read with raw SQL, not a table of the model.
 */
async function fullTextTables(db: Db): Promise<Set<string>> {
  if (db.dialect !== 'sqlite') return new Set();
  const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and sql like 'CREATE VIRTUAL TABLE%USING fts5%'`.execute(db.kysely);
  return new Set(rows.flatMap((r) => [r.name, ...['config', 'data', 'docsize', 'idx', 'content'].map((shadow) => `${r.name}_${shadow}`)]));
}

async function migratedTables(db: Db) {
  const tables = new Map<string, Map<string, DeclaredColumn>>();
  const fullText = await fullTextTables(db);
  for (const table of await tablesOf(db)) {
    if (fullText.has(table.name)) continue;
    // SQLite reports a primary key column as nullable unless it says NOT NULL; it never holds null.
    const primaryKey = new Set<string>();
    if (db.dialect === 'sqlite') {
      const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table.name})`.execute(db.kysely);
      for (const row of rows) if (row.pk > 0) primaryKey.add(row.name);
    }
    tables.set(
      table.name,
      new Map(
        table.columns.map((column) => [
          column.name,
          { kind: numericTypes.test(column.dataType) ? 'number' : 'string', nullable: column.isNullable && !primaryKey.has(column.name) } satisfies DeclaredColumn,
        ]),
      ),
    );
  }
  return tables;
}

describeEachDatabase('db/schema.ts matches the migrations', (database) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await database.open());
  });
  afterAll(async () => drop());

  it('declares every migrated table and column, with the same nullability and kind', async () => {
    const declared = declaredTables();
    const migrated = await migratedTables(db);
    const differences: string[] = [];
    for (const [table, columns] of migrated) {
      const typed = declared.get(table);
      if (!typed) {
        differences.push(`${table}: created by the migrations, missing from Database`);
        continue;
      }
      for (const [column, actual] of columns) {
        const expected = typed.get(column);
        if (!expected) differences.push(`${table}.${column}: in the database, not in schema.ts`);
        else if (expected.nullable !== actual.nullable)
          differences.push(`${table}.${column}: schema.ts says ${expected.nullable ? 'nullable' : 'not null'}, the database ${actual.nullable ? 'nullable' : 'not null'}`);
        else if (expected.kind !== actual.kind) differences.push(`${table}.${column}: schema.ts types it as ${expected.kind}, the database as ${actual.kind}`);
      }
      for (const column of typed.keys()) if (!columns.has(column)) differences.push(`${table}.${column}: in schema.ts, not in the database`);
    }
    for (const table of declared.keys()) if (!migrated.has(table)) differences.push(`${table}: in Database, not created by the migrations`);
    expect(differences).toEqual([]);
  });
});
