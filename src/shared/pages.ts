import { setImmediate as nextTurn } from 'node:timers/promises';

/** Records read at a time when a list is long. */
export const PAGE_SIZE = 1000;

/**
 * Reads a long list a page at a time in id order: the first page after skipping `skip` records,
 * each later one after the last id of the page before (by an index, so a long list does not step
 * through every record before its page again), until `top` records or the end. A turn of the
 * event loop passes between pages, so that reading every account of a large firm, or every
 * message of a large batch, does not hold up other requests (docs/decisions/whole-lists-in-pages.md).
 */
export async function* pagesById<R extends { id: number }>(
  read: (afterId: number, limit: number, skip: number) => Promise<R[]>,
  { skip = 0, top = Infinity }: { skip?: number; top?: number } = {},
): AsyncGenerator<R[]> {
  let afterId = 0;
  let left = top;
  let offset = skip;
  while (left > 0) {
    const limit = Math.min(left, PAGE_SIZE);
    const rows = await read(afterId, limit, offset);
    if (rows.length > 0) yield rows;
    if (rows.length < limit) return;
    left -= rows.length;
    afterId = rows[rows.length - 1]!.id;
    offset = 0;
    await nextTurn();
  }
}

/** The pages made into items, a page at a time. */
export async function* mapPages<R, T>(pages: AsyncIterable<R[]>, items: (rows: R[]) => T[] | Promise<T[]>): AsyncGenerator<T[]> {
  for await (const rows of pages) yield await items(rows);
}
