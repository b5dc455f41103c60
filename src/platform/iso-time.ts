// ISO 8601 times on a hot path, made and read with a memory of the last one. The AIS lines of one
// read share their receive time, so most changes of a batch carry the same instant twice (the
// vessel's last update and its position's time), and `toISOString` costs about half a microsecond.
// Each thread has its own memory (module state is per thread).

let madeMs = Number.NaN;
let made = '';
let readIso = '';
let readMs = Number.NaN;

/** `new Date(ms).toISOString()`, the same string as the last call's when `ms` is the same. */
export function isoTime(ms: number): string {
  if (ms !== madeMs) {
    made = new Date(ms).toISOString();
    madeMs = ms;
  }
  return made;
}

/** `Date.parse(iso)`, not parsed again when it is the last call's `iso`. */
export function timeOf(iso: string): number {
  if (iso !== readIso) {
    readMs = Date.parse(iso);
    readIso = iso;
  }
  return readMs;
}
