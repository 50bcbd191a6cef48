import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { type TSchema, Type } from 'typebox';

type Pages<T> = AsyncIterator<T[]> | Iterator<T[]>;

/**
 * Answers a JSON array a page at a time, for the lists a client reads whole in one call (the
 * source system's client reads every account of a firm: 117,000 accounts are 80 MB of JSON).
 * Built whole, such an answer held the event loop for 15 s, so every other request and the
 * health checks waited, and it held the body and its objects in memory twice over. Streamed,
 * memory holds about a page, and other requests run between pages: the page reader yields a turn
 * of the event loop between its reads (shared/pages.ts), and the socket's backpressure pauses the
 * answer until the client has taken what was sent.
 *
 * Each page goes through the route's own 200 serializer, so the bytes are what Fastify would
 * have sent for the whole array. The first page is read before anything is sent: a failure to
 * read it is an ordinary error answer. A later failure can only cut the answer short (its status
 * is already sent); the client sees a broken body, never a complete-looking partial list.
 */
export async function sendJsonArray<T>(reply: FastifyReply, pages: Pages<T>): Promise<FastifyReply> {
  const first = await pages.next();
  return send(reply, arrayText(first, pages, routeSerializer<T[]>(reply)));
}

/**
 * The same for an object whose last property is a long array (a batch's message and its one
 * detail per account): `head` is the object with that array empty, serialized by the route's 200
 * serializer; the array's items come from `pages`, serialized by `itemSchema`.
 */
export async function sendJsonWithArray<H extends object, T>(reply: FastifyReply, head: H, field: keyof H & string, pages: Pages<T>, itemSchema: TSchema): Promise<FastifyReply> {
  const whole = routeSerializer<H>(reply)(head);
  const empty = `"${field}":[]}`;
  // The schema's property order decides where the array is: it must be last to be streamed.
  if (!whole.endsWith(empty)) throw new Error(`sendJsonWithArray: ${field} must be the last property of the route's 200 schema`);
  const first = await pages.next();
  const items = reply.compileSerializationSchema(arrayOf(itemSchema)) as unknown as (items: T[]) => string;
  async function* text(): AsyncGenerator<string> {
    yield whole.slice(0, -empty.length) + `"${field}":`;
    yield* arrayText(first, pages, items);
    yield '}';
  }
  return send(reply, text());
}

/** One array schema per item schema: Fastify compiles a serializer once per schema object. */
const arrays = new WeakMap<TSchema, Record<string, unknown>>();
function arrayOf(itemSchema: TSchema): Record<string, unknown> {
  let schema = arrays.get(itemSchema);
  if (!schema) arrays.set(itemSchema, (schema = Type.Array(itemSchema) as unknown as Record<string, unknown>));
  return schema;
}

function routeSerializer<T>(reply: FastifyReply): (value: T) => string {
  const serialize = reply.getSerializationFunction('200') as ((value: T) => string) | undefined;
  if (!serialize) throw new Error('a streamed answer needs a route with a 200 response schema');
  return serialize;
}

async function* arrayText<T>(first: IteratorResult<T[]>, pages: Pages<T>, serialize: (items: T[]) => string): AsyncGenerator<string> {
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

function send(reply: FastifyReply, text: AsyncGenerator<string>): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(Readable.from(text, { objectMode: false }));
}
