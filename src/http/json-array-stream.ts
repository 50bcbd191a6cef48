import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Answers a JSON array a page at a time, for the lists a client reads whole in one call (the
 * source system's client reads every account of a firm: 117,000 accounts are 80 MB of JSON).
 * Built whole, such an answer held the event loop for 15 s, so every other request and the
 * health checks waited, and it held the body and its objects in memory twice over. Streamed,
 * memory holds a page and other requests run between pages (the page source yields a turn of the
 * event loop between its reads).
 *
 * Each page goes through the route's own 200 serializer, so the bytes are what Fastify would
 * have sent for the whole array. The first page is read before anything is sent: a failure to
 * read it is an ordinary error answer. A later failure can only cut the answer short (its status
 * is already sent); the client sees a broken body, never a complete-looking partial list.
 */
export async function sendJsonArray<T>(reply: FastifyReply, pages: AsyncIterator<T[]> | Iterator<T[]>): Promise<FastifyReply> {
  const routeSerializer = reply.getSerializationFunction('200') as ((items: T[]) => string) | undefined;
  if (!routeSerializer) throw new Error('sendJsonArray needs a route with a 200 response schema');
  const serialize = routeSerializer;
  const first = await pages.next();
  async function* text(): AsyncGenerator<string> {
    yield '[';
    let separator = '';
    for (let page = first; !page.done; page = await pages.next()) {
      if (page.value.length === 0) continue;
      // The page's array without its brackets: items joined by commas, as in one array.
      yield separator + serialize(page.value).slice(1, -1);
      separator = ',';
    }
    yield ']';
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(text(), { objectMode: false }));
}
