// How responses are serialised: fastify's fast-json-stringify, given each response schema with its
// nullable fields rewritten first. A nullable field is `anyOf: [schema, { type: 'null' }]` (OpenAPI
// 3.1 has no `nullable`), and for anyOf the serialiser runs ajv over the value to choose a branch:
// a landing bundle has dozens of such fields, and that validation was most of its serialisation.
// Written as the schema with `nullable: true`, which the serialiser reads itself, the same JSON is
// written after a null check. Only the serialiser sees the rewrite: validation and the OpenAPI
// document keep the anyOf form.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type Schema = Record<string, unknown>;
type SerializerFactory = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']>;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
const isNull = (schema: unknown): boolean => isSchema(schema) && schema.type === 'null' && Object.keys(schema).length === 1;

/** A copy of the schema with every `anyOf [X, null]` whose X names its own type written as X with `nullable: true`. */
export function nullableForSerialiser(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableForSerialiser);
  if (!isSchema(schema)) return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = key === 'enum' || key === 'const' || key === 'default' || key === 'examples' ? value : nullableForSerialiser(value);
  const branches = copy.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2 || !isNull(branches[1])) return copy;
  const inner = branches[0];
  // A reference or an untyped branch (enum, union) keeps the anyOf: the serialiser needs the branch to know the type.
  if (!isSchema(inner) || typeof inner.type !== 'string' || inner.nullable !== undefined) return copy;
  const { anyOf: _anyOf, ...rest } = copy;
  return { ...inner, ...rest, nullable: true };
}

const defaultFactory = SerializerSelector() as SerializerFactory;

export const serializerFactory: SerializerFactory = (externalSchemas, options) => {
  const shared = Object.fromEntries(Object.entries(externalSchemas ?? {}).map(([id, schema]) => [id, nullableForSerialiser(schema)]));
  const compile = defaultFactory(shared, options);
  return (route) => compile({ ...route, schema: nullableForSerialiser(route.schema) as typeof route.schema });
};
