// An in-memory index of named places with codes, searched by words, by distance, or listed in key
// order, a page at a time.
//
// Search order, which `sort_key` encodes as "<primary>|<key>" so a page can continue after any
// item: with `near`, by distance then key; with `q` alone, by relevance then key; otherwise by key.
// Relevance is the match (the query is one of the item's codes; a word of one of its names starts
// with the query; the words appear somewhere) and, within a match, the item's group, so a larger
// place can come before a smaller one that matches as well. Text is matched after folding case
// and accents on both sides ("zurich" finds "Zürich"). `near` reads a 1° grid (point-grid.ts).
import { fold, words } from '../text.ts';
import type { LatLon } from './great-circle.ts';
import { compareKeys, createPointGrid, type PointGrid } from './point-grid.ts';

export const DEFAULT_SEARCH_LIMIT = 20;
export const MAX_SEARCH_LIMIT = 100;

export type NearQuery = { readonly lat: number; readonly lon: number; readonly radius_nm: number };

export type PlaceSearch = {
  /** Words that must all appear in the item's codes or names (case and accents ignored). */
  readonly q?: string;
  /** Items within radius_nm of the point, nearest first. */
  readonly near?: NearQuery;
  /** 1..MAX_SEARCH_LIMIT; default DEFAULT_SEARCH_LIMIT. */
  readonly limit?: number;
  /** The sort_key of the last item already seen: the search continues after it. */
  readonly after?: string;
};

export type SearchHit = {
  /** Great-circle distance from `near`; null without `near`. */
  readonly distance_nm: number | null;
  /** Position in the result order; pass as `after` to continue from here. */
  readonly sort_key: string;
};

export type SearchPage<H> = {
  readonly items: readonly H[];
  /** The `after` that gives the next page; null on the last page. */
  readonly next_after: string | null;
};

export type PlaceIndexOptions<T> = {
  /** Unique per item; the plain order and every tie go by its code-point order. */
  readonly key: (item: T) => string;
  readonly position: (item: T) => LatLon;
  /** Codes a query can be exactly (null and empty ones are skipped). */
  readonly codes: (item: T) => readonly (string | null)[];
  /** Names a query can start a word of, each on its own. */
  readonly names: (item: T) => readonly string[];
  /** Whether a query can also be a code written with spaces ("AB CDE" for ABCDE). */
  readonly spacedCodes?: boolean;
  /** How many groups rank the items within a match, and the group of each: 0 first. */
  readonly groups: number;
  readonly group: (item: T) => number;
};

export type PlaceIndex<T> = {
  /** Every item, in key order. */
  readonly items: readonly T[];
  /**
   * One page of the items `accept` lets through. Throws RangeError for an `after` it did not
   * issue or a malformed `near`.
   */
  search(query: PlaceSearch, accept?: (item: T) => boolean): SearchPage<SearchHit & { readonly item: T }>;
};

const MATCH_CODE = 0;
const MATCH_NAME = 1;
const MATCH_WORDS = 2;

/** Separates the codes from the names in an entry's text; codes and names are one a line. */
const NAMES = '\t';

/** Folded, with any run of white space (a line break or tab in the data) as one space, as in a query. */
const foldLine = (text: string) => fold(text).replace(/\s+/g, ' ');

type Entry<T> = {
  readonly item: T;
  readonly key: string;
  /**
   * Every searchable field, folded: the codes, then the names, "egll\nlhr\tlondon heathrow airport
   * london". No query word holds a line break or a tab. One string an item: the codes and the
   * words of the names are read from it for the few items a query lets through.
   */
  readonly text: string;
};

type Candidate<T> = { readonly entry: Entry<T>; readonly primary: number; readonly distance: number | null };

type SortKey = { readonly primary: number; readonly key: string };

export function createPlaceIndex<T>(items: Iterable<T>, options: PlaceIndexOptions<T>): PlaceIndex<T> {
  const builder = placeIndexBuilder(options);
  builder.add(items);
  return builder.finish();
}

/**
 * The same index, given its items a batch at a time, so that a large one is built in slices with
 * the event loop free in between; `finish` orders the entries and lays the grid.
 */
export function placeIndexBuilder<T>(options: PlaceIndexOptions<T>): { add(items: Iterable<T>): void; finish(): PlaceIndex<T> } {
  const entries: Entry<T>[] = [];
  return {
    add(items) {
      for (const item of items) {
        const codes = [...new Set(options.codes(item).filter((code): code is string => code !== null && code !== '').map(foldLine))];
        const names = options.names(item).map(foldLine);
        // Made by `join`, which gives a flat string; concatenation would keep its pieces.
        entries.push({ item, key: options.key(item), text: [codes.join('\n'), names.join('\n')].join(NAMES) });
      }
    },
    finish() {
      entries.sort((a, b) => compareKeys(a.key, b.key));
      const grid = createPointGrid(entries, (entry) => options.position(entry.item), (entry) => entry.key);
      return {
        items: entries.map((entry) => entry.item),
        search: (query, accept) => search(query, accept, entries, grid, options),
      };
    },
  };
}

function search<T>(
  query: PlaceSearch,
  accept: ((item: T) => boolean) | undefined,
  entries: readonly Entry<T>[],
  grid: PointGrid<Entry<T>>,
  options: PlaceIndexOptions<T>,
): SearchPage<SearchHit & { readonly item: T }> {
  const limit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, Math.trunc(query.limit ?? DEFAULT_SEARCH_LIMIT)));
  const after = query.after === undefined ? null : parseSortKey(query.after);
  const phrase = foldLine(query.q ?? '').trim();
  const queryWords = phrase === '' ? [] : phrase.split(' ');
  const phraseWords = words(phrase);
  const firstWord = phraseWords.split(' ', 1)[0]!;
  const spaceless = options.spacedCodes === true ? phrase.replaceAll(' ', '') : phrase;

  const accepts = (entry: Entry<T>) =>
    (accept === undefined || accept(entry.item)) && queryWords.every((word) => entry.text.includes(word));
  const relevance = ({ item, text }: Entry<T>) => {
    const names = text.indexOf(NAMES);
    const match = isLine(text, phrase, names) || isLine(text, spaceless, names)
      ? MATCH_CODE
      : startsAWord(text, names + 1, phraseWords, firstWord)
        ? MATCH_NAME
        : MATCH_WORDS;
    return match * options.groups + options.group(item);
  };

  let candidates: Candidate<T>[];
  if (query.near !== undefined) {
    const centre = checkedCentre(query.near);
    candidates = grid
      .nearest(centre, centre.radius_nm, accepts)
      .map((hit) => ({ entry: hit.item, primary: hit.distance_nm, distance: hit.distance_nm }));
  } else if (queryWords.length > 0) {
    // Entries are in key order, so filling one bucket per relevance keeps each bucket sorted.
    const buckets: Candidate<T>[][] = Array.from({ length: (MATCH_WORDS + 1) * options.groups }, () => []);
    for (const entry of entries) {
      if (!accepts(entry)) continue;
      const primary = relevance(entry);
      buckets[primary]!.push({ entry, primary, distance: null });
    }
    candidates = buckets.flat();
  } else {
    // Plain key order: start right after the cursor and stop once a page and one more are found.
    candidates = [];
    const start = after === null ? 0 : after.primary > 0 ? entries.length : firstAfterKey(entries, after.key);
    for (let i = start; i < entries.length && candidates.length <= limit; i++) {
      if (accepts(entries[i]!)) candidates.push({ entry: entries[i]!, primary: 0, distance: null });
    }
  }

  const remaining = after === null ? candidates : candidates.filter((candidate) => isAfter(candidate, after));
  const page = remaining.slice(0, limit).map(({ entry, primary, distance }) => ({
    item: entry.item,
    distance_nm: distance,
    sort_key: `${primary}|${entry.key}`,
  }));
  return { items: page, next_after: remaining.length > limit ? page[page.length - 1]!.sort_key : null };
}

/** Whether `value` is one of the lines of `text` before `end` (an entry's codes). */
function isLine(text: string, value: string, end: number): boolean {
  for (let at = text.indexOf(value); at >= 0 && at + value.length <= end; at = text.indexOf(value, at + 1)) {
    const after = at + value.length;
    if ((at === 0 || text[at - 1] === '\n') && (after === end || text[after] === '\n')) return true;
  }
  return false;
}

/**
 * Whether a word of one of the lines of `text` from `from` on (an entry's names) starts with
 * `phraseWords` (whose first word is `first`), punctuation in a name read as spaces: for some
 * name, ` ${words(name)}` includes ` ${phraseWords}`. Searched for in the text as it is, so
 * nothing is made for the names that do not hold the phrase's first word.
 */
function startsAWord(text: string, from: number, phraseWords: string, first: string): boolean {
  if (phraseWords === '') return true;
  for (let at = text.indexOf(first, from); at >= 0; at = text.indexOf(first, at + 1)) {
    if (at > from && ENDS_IN_LETTER_OR_DIGIT.test(text.slice(Math.max(from, at - 2), at))) continue;
    // One word is letters and digits only, which a name holds as they are.
    if (first.length === phraseWords.length) return true;
    const end = text.indexOf('\n', at);
    if (words(text.slice(at, end < 0 ? text.length : end)).startsWith(phraseWords)) return true;
  }
  return false;
}

/** Two characters, to see a whole letter written as a surrogate pair. */
const ENDS_IN_LETTER_OR_DIGIT = /[\p{L}\p{N}]$/u;

function parseSortKey(text: string): SortKey {
  const separator = text.indexOf('|');
  const primary = Number(text.slice(0, separator));
  const key = text.slice(separator + 1);
  if (separator <= 0 || !Number.isFinite(primary) || primary < 0 || key === '') {
    throw new RangeError(`not a search position: ${JSON.stringify(text)}`);
  }
  return { primary, key };
}

function isAfter(candidate: Candidate<unknown>, after: SortKey): boolean {
  if (candidate.primary !== after.primary) return candidate.primary > after.primary;
  return compareKeys(candidate.entry.key, after.key) > 0;
}

/** Index of the first entry whose key sorts after `key`. */
function firstAfterKey(entries: readonly Entry<unknown>[], key: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(entries[middle]!.key, key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

function checkedCentre(near: NearQuery): NearQuery {
  const { lat, lon, radius_nm } = near;
  if (!(Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && radius_nm >= 0 && Number.isFinite(radius_nm))) {
    throw new RangeError('near needs lat in [-90, 90], lon in [-180, 180] and a finite radius_nm >= 0');
  }
  return near;
}
