// How responses are serialised: fastify's fast-json-stringify, given each response schema with its
// nullable fields rewritten first. A nullable field is `anyOf: [schema, { type: 'null' }]` (OpenAPI
// 3.1 has no `nullable`), and for anyOf the serialiser runs ajv over the value to choose a branch:
// a landing bundle has dozens of such fields, and that validation was most of its serialisation.
// Written as the schema with `nullable: true`, which the serialiser reads itself, the same JSON is
// written after a null check. Only the serialiser sees the rewrite: validation and the OpenAPI
// document keep the anyOf form.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { buildLater } from './build-later.ts';

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

// Start-up cost. fast-json-stringify validates every external schema it is handed on every build,
// and fastify builds one serialiser per route, status and media type, in each of the ~200
// encapsulation contexts, with all ~90 shared shapes: hundreds of builds, each re-checking every
// shape, were most of the time before the server listened. So each shared shape is rewritten once,
// each build gets only the shapes its schema reaches through `$ref`, a response schema used by
// many routes (the problem document of every 4XX and 5XX) is built once, and builds wait until the
// route is used or the server listens (build-later.ts).
const rewrittenShared = new WeakMap<object, unknown>();
type Serializer = ReturnType<ReturnType<SerializerFactory>>;
const built = new WeakMap<object, { options: unknown; shapes: Map<string, unknown>; serialize: Serializer }[]>();

function rewriteShared(schema: unknown): unknown {
  if (!isSchema(schema)) return nullableForSerialiser(schema);
  let rewritten = rewrittenShared.get(schema);
  if (rewritten === undefined) rewrittenShared.set(schema, (rewritten = nullableForSerialiser(schema)));
  return rewritten;
}

/** The shared shapes `schema` refers to by id (`Wind`, `Wind#/properties/x`), directly or through other shapes. */
function reachedShapes(schema: unknown, shared: Record<string, unknown>): Map<string, unknown> {
  const reached = new Map<string, unknown>();
  const pending = [schema];
  while (pending.length) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    if (!isSchema(node)) continue;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
      if (key !== '$ref' || typeof value !== 'string') {
        pending.push(value);
        continue;
      }
      const id = value.split('#')[0]!;
      if (id && !reached.has(id) && Object.hasOwn(shared, id)) {
        reached.set(id, shared[id]);
        pending.push(shared[id]);
      }
    }
  }
  return reached;
}

const sameShapes = (a: Map<string, unknown>, b: Map<string, unknown>) => a.size === b.size && [...a].every(([id, shape]) => b.get(id) === shape);

export const serializerFactory: SerializerFactory = (externalSchemas, options) => {
  const shared: Record<string, unknown> = {};
  for (const [id, schema] of Object.entries(externalSchemas ?? {})) shared[id] = rewriteShared(schema);
  return (route) => buildLater(() => {
    const original = route.schema as object;
    const shapes = reachedShapes(original, shared);
    const previous = built.get(original);
    const reuse = previous?.find((entry) => entry.options === options && sameShapes(entry.shapes, shapes));
    if (reuse) return reuse.serialize;
    const serialize = defaultFactory(Object.fromEntries(shapes), options)({ ...route, schema: nullableForSerialiser(original) as typeof route.schema });
    built.set(original, [...(previous ?? []), { options, shapes, serialize }]);
    return serialize;
  });
};
