import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapPages, PAGE_SIZE, pagesById } from './pages.js';

/** A table of ids read the way the repositories read it: after an id, skipping, up to a limit. */
function tableOf(ids: number[]) {
  const reads: { afterId: number; limit: number; skip: number }[] = [];
  const read = async (afterId: number, limit: number, skip: number) => {
    reads.push({ afterId, limit, skip });
    return ids.filter((id) => id > afterId).slice(skip, skip + limit).map((id) => ({ id }));
  };
  return { read, reads };
}

async function all<T>(pages: AsyncIterable<T[]>): Promise<T[][]> {
  const out: T[][] = [];
  for await (const page of pages) out.push(page);
  return out;
}

describe('pagesById: a long list a page at a time', () => {
  it('selects exactly what an offset and a limit would, in pages of at most PAGE_SIZE', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { maxLength: 3 * PAGE_SIZE + 7 }).map((ids) => ids.sort((a, b) => a - b)),
        fc.nat({ max: 4000 }),
        fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }),
        async (ids, skip, top) => {
          const { read } = tableOf(ids);
          const pages = await all(pagesById(read, { skip, top }));
          expect(pages.flat().map((r) => r.id)).toEqual(ids.slice(skip, top === undefined ? undefined : skip + top));
          expect(pages.every((p) => p.length > 0 && p.length <= PAGE_SIZE)).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('skips only on the first read and continues after the last id of each page', async () => {
    const { read, reads } = tableOf(Array.from({ length: 2500 }, (_, i) => 2 * i + 1));
    await all(pagesById(read, { skip: 10 }));
    expect(reads).toEqual([
      { afterId: 0, limit: PAGE_SIZE, skip: 10 },
      { afterId: 2 * 1009 + 1, limit: PAGE_SIZE, skip: 0 },
      { afterId: 2 * 2009 + 1, limit: PAGE_SIZE, skip: 0 },
    ]);
  });

  it('stops reading when the consumer stops', async () => {
    const { read, reads } = tableOf(Array.from({ length: 5000 }, (_, i) => i + 1));
    for await (const page of pagesById(read)) {
      expect(page).toHaveLength(PAGE_SIZE);
      break;
    }
    expect(reads).toHaveLength(1);
  });

  it('mapPages makes each page into items', async () => {
    const { read } = tableOf([1, 2, 3]);
    expect(await all(mapPages(pagesById(read), (rows) => rows.map((r) => `#${r.id}`)))).toEqual([['#1', '#2', '#3']]);
  });
});
