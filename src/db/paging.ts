/** What a page read was asked for: its size, its offset, and whether the total is wanted. */
export interface PageRequest {
  top: number;
  skip: number;
  count: boolean;
}

/**
 * A page's rows with the total when it is wanted (`$count=true`). A short page that is not past
 * the end shows the total itself (`skip` plus its rows), so only a full page, or one past the end,
 * costs the count read.
 */
export async function withTotal<R>(rows: R[], page: PageRequest, countAll: () => Promise<number>): Promise<{ rows: R[]; total?: number }> {
  if (!page.count) return { rows, total: undefined };
  if (rows.length < page.top && (rows.length > 0 || page.skip === 0)) return { rows, total: page.skip + rows.length };
  return { rows, total: await countAll() };
}
