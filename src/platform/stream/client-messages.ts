// Client messages checked against their JSON Schemas: the streams' TypeBox schemas, which are also
// the AsyncAPI document's payloads, as plain JSON. The checking needs no schema builder: a stream
// process is sent the schemas and checks with them, without loading TypeBox (about 30 MiB and a
// quarter of a second a process).
import { Validator, type OutputUnit, type Schema } from '@cfworker/json-schema';

/** Each client message's JSON Schema, by its `type`. */
export type ClientMessageSchemas = Readonly<Record<string, object>>;

/** What is wrong with a message: the field as a JSON pointer (`''` for the message itself) and a phrase to follow it. */
export interface MessageIssue {
  field: string;
  message: string;
}

/** Reads a JSON pointer's reference tokens (`/a~1b/0` → `a/b`, `0`). */
function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const token of tokens(pointer)) node = (node as Record<string, unknown> | undefined)?.[token];
  return node;
}

const ARTICLE: Record<string, string> = { integer: 'an integer', object: 'an object', array: 'an array' };

const count = (limit: unknown, noun: string) => `${String(limit)} ${noun}${limit === 1 ? '' : 's'}`;

/** The phrase for a failed keyword, from the schema's own value (never from the input: it may hold a key). */
function phrase(keyword: string, limit: unknown): string {
  switch (keyword) {
    case 'type': return `must be ${ARTICLE[String(limit)] ?? `a ${String(limit)}`}`;
    case 'minimum': return `must be at least ${String(limit)}`;
    case 'maximum': return `must be at most ${String(limit)}`;
    case 'minLength': return `must have at least ${count(limit, 'character')}`;
    case 'maxLength': return `must have at most ${count(limit, 'character')}`;
    case 'minItems': return `must have at least ${count(limit, 'item')}`;
    case 'maxItems': return `must have at most ${count(limit, 'item')}`;
    case 'pattern': return `must match ${String(limit)}`;
    case 'enum': return `must be one of ${(limit as unknown[]).join(', ')}`;
    case 'const': return `must be ${JSON.stringify(limit)}`;
    default: return 'is not valid';
  }
}

/** The client messages of a stream, each checked against its schema. */
export class ClientMessages {
  readonly #schemas: ClientMessageSchemas;
  readonly #validators = new Map<string, Validator>();

  constructor(schemas: ClientMessageSchemas) {
    // Their JSON form (no TypeBox markers): what a stream process is sent is what is checked here.
    this.#schemas = JSON.parse(JSON.stringify(schemas)) as ClientMessageSchemas;
  }

  /** The schemas as JSON, for a stream process to check with. */
  get schemas(): ClientMessageSchemas {
    return this.#schemas;
  }

  /** The one issue of a message of this type against its schema, or null when it is valid. */
  issue(type: string, value: unknown): MessageIssue | null {
    const schema = this.#schemas[type];
    if (schema === undefined) throw new RangeError(`no schema for the client message ${type}`);
    let validator = this.#validators.get(type);
    if (validator === undefined) this.#validators.set(type, (validator = new Validator(schema as Schema, '2020-12', true)));
    const { valid, errors } = validator.validate(value);
    // Stopping at the first failure, the validator lists the keywords that enclose it, innermost last.
    return valid ? null : this.#describe(schema, value, errors.at(-1)!);
  }

  #describe(schema: object, value: unknown, unit: OutputUnit): MessageIssue {
    const field = unit.instanceLocation.slice(1);
    if (unit.keyword === 'false') return { field, message: 'is not a known field' };
    const limit = at(schema, unit.keywordLocation.slice(1));
    if (unit.keyword === 'required') {
      const present = at(value, field) as Record<string, unknown>;
      const missing = (limit as string[]).find((name) => !(name in present)) ?? '';
      return { field: `${field}/${missing}`, message: 'is required' };
    }
    return { field, message: phrase(unit.keyword, limit) };
  }
}
