import Fastify from 'fastify';
import { Type } from 'typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJsonArray, sendJsonWithArray } from './json-array-stream.js';

const Item = Type.Object({ id: Type.Integer(), name: Type.String() });

describe('sendJsonArray: a JSON array answered a page at a time', () => {
  const apps: ReturnType<typeof Fastify>[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  function appWith(pages: () => AsyncIterator<unknown[]>) {
    const app = Fastify();
    apps.push(app);
    app.get('/list', { schema: { response: { 200: Type.Array(Item) } } }, async (_request, reply) => sendJsonArray(reply, pages()));
    return app;
  }

  it('answers the pages as one array, through the route\'s serializer (properties outside the schema are left out)', async () => {
    const app = appWith(async function* () {
      yield [{ id: 1, name: 'a', secret: 'x' }];
      yield [];
      yield [{ id: 2, name: 'b "quoted"' }, { id: 3, name: 'c' }];
    });
    const response = await app.inject({ url: '/list' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.body).toBe('[{"id":1,"name":"a"},{"id":2,"name":"b \\"quoted\\""},{"id":3,"name":"c"}]');
  });

  it('answers [] when there is no page or only empty ones', async () => {
    expect((await appWith(async function* () {}).inject({ url: '/list' })).body).toBe('[]');
    expect((await appWith(async function* () {
      yield [];
    }).inject({ url: '/list' })).body).toBe('[]');
  });

  it('a failure reading the first page is an ordinary error answer, nothing of the list sent', async () => {
    const app = appWith(() => ({
      next: () => Promise.reject(new Error('database unavailable')),
    }));
    const response = await app.inject({ url: '/list' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('[');
  });

  it('a failure after the first page cuts the answer short: the body is never a complete-looking array', async () => {
    const app = appWith(async function* () {
      yield [{ id: 1, name: 'a' }];
      throw new Error('connection lost');
    });
    // The connection is dropped mid-answer: a client sees a broken body, not a short list.
    await expect(app.inject({ url: '/list' })).rejects.toThrow('response destroyed before completion');
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    const response = await fetch(`${origin}/list`);
    expect(response.status).toBe(200);
    await expect(response.text()).rejects.toThrow();
  });

  it('sendJsonWithArray: an object whose last property is a long array, the array a page at a time', async () => {
    const Message = Type.Object({ subject: Type.String(), count: Type.Integer(), details: Type.Array(Item) });
    const app = Fastify();
    apps.push(app);
    app.get('/message', { schema: { response: { 200: Message } } }, async (_request, reply) =>
      sendJsonWithArray(reply, { subject: 'done "ok"', count: 3, details: [] }, 'details', [[{ id: 1, name: 'a' }], [{ id: 2, name: 'b', extra: 1 }]][Symbol.iterator](), Item),
    );
    app.get('/empty', { schema: { response: { 200: Message } } }, async (_request, reply) => sendJsonWithArray(reply, { subject: 's', count: 0, details: [] }, 'details', [][Symbol.iterator](), Item));
    const Misordered = Type.Object({ details: Type.Array(Item), subject: Type.String() });
    app.get('/misordered', { schema: { response: { 200: Misordered } } }, async (_request, reply) => sendJsonWithArray(reply, { details: [], subject: 's' }, 'details', [][Symbol.iterator](), Item));
    expect((await app.inject({ url: '/message' })).body).toBe('{"subject":"done \\"ok\\"","count":3,"details":[{"id":1,"name":"a"},{"id":2,"name":"b"}]}');
    expect((await app.inject({ url: '/empty' })).json()).toEqual({ subject: 's', count: 0, details: [] });
    // The array must be the schema's last property to be streamed: a route built otherwise fails loudly.
    expect((await app.inject({ url: '/misordered' })).statusCode).toBe(500);
  });
});
