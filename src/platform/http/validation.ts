// How requests are validated: ajv, coercing types (query strings, path parameters and headers
// arrive as text), plus one rule ajv lacks: numbers are finite.
//
// Coercing text to a number, ajv reads "Infinity", "-Infinity" and "1e309" (which overflows) as
// ±Infinity and then skips the range keywords for it (`minimum` and `maximum` apply to finite
// numbers only), so `limit=Infinity` passed `maximum: 100`. Every validator the server compiles
// therefore also refuses, by its path, any number in what it validated that is not finite. JSON
// bodies reach the same rule (`1e309` parses as Infinity), as does every route added later.
import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { buildLater } from './build-later.ts';

type AjvSettings = NonNullable<FastifyServerOptions['ajv']>;
// fastify's own types name the ajv instance its plugins get; ajv is not a dependency of its own here.
type AjvPlugin = Extract<NonNullable<AjvSettings['plugins']>[number], (...args: never[]) => unknown>;
type Ajv = Parameters<AjvPlugin>[0];
type Validate = ReturnType<Ajv['compile']>;
type ValidationError = NonNullable<Validate['errors']>[number];

/** Where `value` holds a number that is not finite, as ajv reports a failed keyword. */
function nonFinite(value: unknown, path: string, found: ValidationError[]): void {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) found.push({ instancePath: path, schemaPath: '#', keyword: 'finite', params: {}, message: 'must be a finite number' });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  // Parsed JSON, query strings (whose objects have a bare prototype of their own), parameters and
  // headers: a Buffer or a stream is no tree of numbers.
  const prototype = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== null && prototype !== Object.prototype && Object.getPrototypeOf(prototype) !== null) return;
  for (const [key, item] of Object.entries(value)) nonFinite(item, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, found);
}

/** The validator, also failing on numbers that are not finite; fastify reads `errors` after each call. */
function finite(validate: Validate): Validate {
  const checked = Object.assign((data: unknown, context?: { parentData: Record<string, unknown>; parentDataProperty: string }) => {
    const valid = validate(data, context as never);
    // Coercion may have replaced the value itself; fastify passes its holder to receive the result.
    const value = context === undefined ? data : context.parentData[context.parentDataProperty];
    const errors = [...(validate.errors ?? [])];
    const found: ValidationError[] = [];
    nonFinite(value, '', found);
    // ajv names a JSON body's infinite number itself where the schema wants a number.
    errors.push(...found.filter((error) => !errors.some((other) => other.instancePath === error.instancePath)));
    checked.errors = errors.length > 0 ? errors : null;
    return valid && errors.length === 0;
  }, validate);
  return checked as Validate;
}

function finiteNumbers(ajv: Ajv): Ajv {
  const compile = ajv.compile.bind(ajv);
  const getSchema = ajv.getSchema.bind(ajv);
  ajv.compile = ((...args: Parameters<Ajv['compile']>) => finite(compile(...args))) as Ajv['compile'];
  // fastify takes a schema with an `$id` it has compiled before from here.
  ajv.getSchema = ((...args: Parameters<Ajv['getSchema']>) => {
    const validate = getSchema(...args);
    return validate && finite(validate);
  }) as Ajv['getSchema'];
  return ajv;
}

export const AJV_SETTINGS: AjvSettings = {
  // validateSchema: checking the ~90 shared shapes against JSON Schema's meta-schema (compiled
  // first) took 67 to 193 ms of CPU in one piece after the start's listen; the shapes are
  // checked by test/platform/startup.test.ts instead, and ajv's strict mode still refuses unknown
  // keywords and types as it compiles.
  customOptions: { allErrors: true, coerceTypes: 'array', removeAdditional: false, validateSchema: false },
  plugins: [finiteNumbers],
};

// The ajv compiler's own types describe its compiler as ajv's `compile`; fastify calls it with a route's schema definition.
type Compiler = FastifySchemaCompiler<unknown>;
type ValidatorFactory = (externalSchemas: Record<string, unknown>, options: unknown) => Compiler;
type ValidatorFactoryOption = NonNullable<NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']>;
export const defaultValidatorFactory = AjvCompiler() as unknown as ValidatorFactory;
const builtValidators: { schemas: [string, unknown][]; options: unknown; compiler: Compiler }[] = [];
const sameSchemas = (a: [string, unknown][], b: [string, unknown][]) => a.length === b.length && a.every(([id, schema], i) => b[i]![0] === id && b[i]![1] === schema);

/**
 * Start-up cost. fastify asks for a validator compiler for every route of a scope that added
 * schemas (the root, which holds the ~90 shared shapes) and for every other scope, and the ajv
 * compiler's pool tells them apart by the JSON text of every shared shape: hundreds of
 * serialisations of the same shapes, a tenth of the start. Here the same shapes (the same objects)
 * and options get the compiler built for them before, without serialising anything. Each
 * validator is compiled on its route's first use or once the server listens (build-later.ts).
 *
 * With a compiler factory of its own, fastify no longer lower-cases the header names of a route's
 * `headers` schema (Node.js hands them in lower case), so such a schema must name them so.
 */
export const validatorFactory = ((externalSchemas, options) => {
  const schemas = Object.entries(externalSchemas ?? {});
  const reuse = builtValidators.find((entry) => entry.options === options && sameSchemas(entry.schemas, schemas));
  if (reuse) return reuse.compiler;
  // The ajv instance itself, with every shared shape checked and added, waits for the first build.
  let compile: Compiler | undefined;
  const compiler: Compiler = (route) => {
    const named = route.httpPart === 'headers' ? Object.keys((route.schema as { properties?: object }).properties ?? {}) : [];
    const upper = named.find((name) => name !== name.toLowerCase());
    if (upper !== undefined) throw new Error(`${route.method} ${route.url}: name the header ${upper} in lower case in its schema`);
    return buildLater(() => (compile ??= defaultValidatorFactory(externalSchemas, options))(route) as ReturnType<Compiler> & ((...args: never[]) => unknown));
  };
  builtValidators.push({ schemas, options, compiler });
  return compiler;
}) as ValidatorFactory as unknown as ValidatorFactoryOption;
