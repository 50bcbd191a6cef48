import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { inIds, paddedIds, slices } from './id-chunks.js';

describe('slices', () => {
  it('cuts a list into consecutive slices of at most the size, keeping every item once and in order', () => {
    const items = Array.from({ length: 23 }, (_, i) => i);
    const parts = slices(items, 10);
    expect(parts.map((p) => p.length)).toEqual([10, 10, 3]);
    expect(parts.flat()).toEqual(items);
    expect(slices([], 10)).toEqual([]);
  });
});

describe('paddedIds', () => {
  // Neither database is opened: the dialect alone decides.
  const sqlite = new Kysely({ dialect: new SqliteDialect({ database: async () => ({}) as never }) });
  const postgres = new Kysely({ dialect: new PostgresDialect({ pool: async () => ({}) as never }) });

  it('pads a SQLite list by repeating its last id to one of eight lengths per doubling, so lists of nearby lengths share a statement', () => {
    const lengths = new Set<number>();
    for (let n = 2400; n <= 2560; n++) {
      const ids = Array.from({ length: n }, (_, i) => i * 3);
      const padded = paddedIds(sqlite, ids);
      expect(padded.slice(0, n)).toEqual(ids);
      expect(new Set(padded.slice(n))).toEqual(n === padded.length ? new Set() : new Set([ids[n - 1]]));
      expect(padded.length).toBeLessThanOrEqual(n * 1.125);
      lengths.add(padded.length);
    }
    expect([...lengths]).toEqual([2560]);
  });

  it('leaves short lists, and every PostgreSQL list, as they are', () => {
    expect(paddedIds(sqlite, [1, 2, 3])).toEqual([1, 2, 3]);
    expect(paddedIds(sqlite, [])).toEqual([]);
    const ids = Array.from({ length: 2499 }, (_, i) => i);
    expect(paddedIds(postgres, ids)).toBe(ids);
  });
});

describe('inIds', () => {
  const sqlite = new Kysely<{ t: { id: number } }>({ dialect: new SqliteDialect({ database: async () => ({}) as never }) });
  const postgres = new Kysely<{ t: { id: number } }>({ dialect: new PostgresDialect({ pool: async () => ({}) as never }) });

  it('binds a PostgreSQL list as one array parameter, whatever its length', () => {
    const ids = Array.from({ length: 2499 }, (_, i) => i);
    const compiled = postgres.selectFrom('t').select('id').where(inIds(postgres, 't.id', ids)).compile();
    expect(compiled.sql).toBe('select "id" from "t" where "t"."id" = any($1::int4[])');
    expect(compiled.parameters).toEqual([ids]);
  });

  it('writes a SQLite list as padded parameters', () => {
    const ids = Array.from({ length: 2499 }, (_, i) => i);
    const compiled = sqlite.selectFrom('t').select('id').where(inIds(sqlite, 'id', ids)).compile();
    expect(compiled.parameters).toEqual(paddedIds(sqlite, ids));
    expect(compiled.sql).toBe(`select "id" from "t" where "id" in (${compiled.parameters.map(() => '?').join(', ')})`);
  });
});
