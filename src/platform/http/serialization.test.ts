import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { nullableForSerialiser, serializerFactory } from './serialization.ts';
import { nullable } from './schema.ts';

const Wind = Type.Object({ direction_deg: nullable(Type.Number()), speed_kt: Type.Number() }, { $id: 'Wind' });
const Answer = Type.Object({
  wind: nullable(Type.Ref('Wind')),
  runway: nullable(Type.Object({ designator: Type.String(), crosswind_kt: nullable(Type.Number()) }, { description: 'The chosen end' })),
  category: nullable(Type.Enum(['VFR', 'IFR'])),
  notes: Type.Array(nullable(Type.String())),
});

describe('response serialisation', () => {
  test('a nullable field with a type of its own is written with `nullable`; references and enums keep the anyOf', () => {
    const rewritten = nullableForSerialiser(JSON.parse(JSON.stringify(Answer))) as { properties: Record<string, Record<string, unknown>> };
    const { wind, runway, category, notes } = rewritten.properties;
    assert.ok(Array.isArray(wind!.anyOf), 'a $ref branch stays a union');
    assert.equal(runway!.type, 'object');
    assert.equal(runway!.nullable, true);
    assert.equal(runway!.description, 'The chosen end');
    assert.deepEqual((runway!.properties as Record<string, unknown>).crosswind_kt, { type: 'number', nullable: true });
    assert.ok(Array.isArray(category!.anyOf), 'an enum names no type of its own');
    assert.deepEqual(notes!.items, { type: 'string', nullable: true });
  });

  test('answers come out as JSON.stringify writes them, nulls and all, and unknown fields are still left out', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: serializerFactory } } });
    app.addSchema(Wind);
    const bodies = [
      { wind: { direction_deg: null, speed_kt: 12 }, runway: { designator: '27R', crosswind_kt: 4.5 }, category: 'IFR', notes: ['a', null] },
      { wind: null, runway: null, category: null, notes: [] },
    ];
    app.get('/:index', { schema: { response: { 200: Answer } } }, async (request) => ({ ...bodies[Number((request.params as { index: string }).index)], secret: 'x' }));
    for (const [index, body] of bodies.entries()) {
      const response = await app.inject(`/${index}`);
      assert.equal(response.body, JSON.stringify(body));
    }
    await app.close();
  });

  test('shapes reached through other shapes are resolved, and a response schema shared by routes in several scopes serialises in each', async () => {
    const app = Fastify({ schemaController: { compilersFactory: { buildSerializer: serializerFactory } } });
    app.addSchema(Wind);
    app.addSchema(Type.Object({ icao: Type.String(), wind: Type.Ref('Wind') }, { $id: 'Station' }));
    const Report = Type.Object({ station: Type.Ref('Station'), count: Type.Integer() });
    const body = { station: { icao: 'EGLL', wind: { direction_deg: 270, speed_kt: 8, gust: 1 } }, count: 2 };
    app.get('/a', { schema: { response: { 200: Report } } }, async () => body);
    await app.register(async (scope) => {
      scope.get('/b', { schema: { response: { 200: Report } } }, async () => ({ ...body, count: 3 }));
    });
    const expected = (count: number) => JSON.stringify({ station: { icao: 'EGLL', wind: { direction_deg: 270, speed_kt: 8 } }, count });
    assert.equal((await app.inject('/a')).body, expected(2));
    assert.equal((await app.inject('/b')).body, expected(3));
    await app.close();
  });
});
