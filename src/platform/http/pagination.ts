// Cursor pagination for every list: `limit` (1-100) and an opaque `cursor` in, `{ data, next_cursor }`
// out. A cursor carries the sort key of the last item served, so pages stay stable while items are
// added or removed elsewhere in the list.
import { Type, type TSchema } from 'typebox';
import { ProblemError, problemType } from './problems.ts';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

export const PageQuery = {
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: `Items per page, at most ${MAX_PAGE_SIZE}` })),
  cursor: Type.Optional(Type.String({ maxLength: 512, description: 'The `next_cursor` of the previous page' })),
};

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as `cursor` for the next page; null on the last page' }),
  });
}

export const invalidCursor = problemType({
  code: 'invalid_cursor',
  status: 400,
  title: 'The cursor is not valid',
  description: 'The `cursor` must be a `next_cursor` returned by the same list, unchanged.',
});

export function encodeCursor(key: unknown): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The sort key inside a cursor, checked by `accept`; a 400 problem when it is not one of ours. */
export function decodeCursor<K>(cursor: string, accept: (key: unknown) => key is K): K {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (accept(key)) return key;
  } catch {
    // reported below
  }
  throw new ProblemError(invalidCursor, 'The cursor was not issued by this list; start again without one.');
}

/**
 * One page of items sorted by key: the `limit` smallest keys after the cursor. Takes any iterable so
 * callers can filter lazily; keeps only the page in a sorted buffer.
 */
export function pageOf<T, K extends number | string>(
  items: Iterable<T>,
  keyOf: (item: T) => K,
  limit: number,
  after: K | undefined,
): { data: T[]; next_cursor: string | null } {
  const buffer: { key: K; item: T }[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (after !== undefined && key <= after) continue;
    if (buffer.length > limit && key >= buffer[buffer.length - 1]!.key) continue;
    let index = buffer.length;
    while (index > 0 && buffer[index - 1]!.key > key) index--;
    buffer.splice(index, 0, { key, item });
    if (buffer.length > limit + 1) buffer.pop();
  }
  const more = buffer.length > limit;
  const data = buffer.slice(0, limit);
  return { data: data.map((entry) => entry.item), next_cursor: more ? encodeCursor(data[data.length - 1]!.key) : null };
}
