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
});
