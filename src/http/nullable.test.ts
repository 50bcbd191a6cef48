import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { Nullable } from './nullable.js';
import { validatorCompiler } from './validation.js';
import { registerErrorHandling } from './error-handler.js';

describe('Nullable', () => {
  it('lists a plain type with null, keeping its keywords and the options', () => {
    expect(JSON.parse(JSON.stringify(Nullable(Type.Integer({ minimum: 1 }), { description: 'an id' })))).toEqual({ type: ['integer', 'null'], minimum: 1, description: 'an id' });
    expect(JSON.parse(JSON.stringify(Nullable(Type.String({ format: 'date' }))))).toEqual({ type: ['string', 'null'], format: 'date' });
  });

  it('keeps objects, enums and constants a union', () => {
    for (const schema of [Type.Object({ a: Type.Integer() }), Type.Unsafe({ type: 'string', enum: ['A', 'B'] }), Type.Literal('A')]) {
      const made = JSON.parse(JSON.stringify(Nullable(schema))) as { anyOf?: unknown[] };
      expect(made.anyOf).toHaveLength(2);
      expect(made.anyOf?.[1]).toEqual({ type: 'null' });
    }
  });

  it('validates and serializes as the union did, and names both types when a value is neither', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    registerErrorHandling(app);
    const Body = Type.Object({ a: Nullable(Type.Integer()), b: Nullable(Type.String({ format: 'date' })) });
    app.post('/', { schema: { body: Body, response: { 200: Body } } }, async (request) => request.body);
    for (const payload of [{ a: 1, b: '2026-01-02' }, { a: null, b: null }]) {
      const ok = await app.inject({ method: 'POST', url: '/', payload });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual(payload);
    }
    const bad = await app.inject({ method: 'POST', url: '/', payload: { a: 'one', b: '2 January' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([
      { field: 'a', message: 'must be integer or null' },
      { field: 'b', message: 'must match format "date"' },
    ]);
    await app.close();
  });

  it('names what is wrong inside a nullable object, not that it might have been null', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    registerErrorHandling(app);
    const Options = Type.Object({ budget: Type.Number({ minimum: 0 }) });
    const Body = Type.Object({ options: Nullable(Options), list: Nullable(Type.Array(Type.Integer())), method: Type.Optional(Nullable(Type.Unsafe<string>({ type: 'string', enum: ['FIFO', 'HIFO'] }))) });
    app.post('/', { schema: { body: Body } }, async () => ({ ok: true }));
    const inside = await app.inject({ method: 'POST', url: '/', payload: { options: { budget: -5 }, list: null } });
    expect(inside.statusCode).toBe(400);
    expect(inside.json().errors).toEqual([{ field: 'options.budget', message: 'must be >= 0' }]);
    expect(inside.json().detail).toBe('options.budget must be >= 0');
    const element = await app.inject({ method: 'POST', url: '/', payload: { options: null, list: [1, 'two'] } });
    expect(element.json().errors).toEqual([{ field: 'list[1]', message: 'must be integer' }]);
    const whole = await app.inject({ method: 'POST', url: '/', payload: { options: 'cheap', list: 3, method: 'LIFO' } });
    expect(whole.json().errors).toEqual([
      { field: 'options', message: 'must be object or null' },
      { field: 'list', message: 'must be array or null' },
      { field: 'method', message: 'must be one of FIFO, HIFO, or null' },
    ]);
    await app.close();
  });
});
