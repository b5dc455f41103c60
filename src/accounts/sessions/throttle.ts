// Counting events per subject over sliding windows, in storage so that every instance of the
// service sees the same counts: sign-ups per address, verification mails per user, password-reset
// requests, invitations. Subjects are stored as SHA-256 hashes, so the table holds no addresses in
// clear. Checking and recording are separate steps: requests racing each other may together go a
// few events over a limit, which is fine for throttles that only have to make mail bombing slow.
// Failed sign-ins, where every check counts, take their places atomically (sign-in-throttle.ts).
import { createHash } from 'node:crypto';
import type { Database } from '../../platform/db/database.ts';

export interface Limit {
  count: number;
  windowMs: number;
}

/** Events older than this are deleted: longer than any window used. */
const KEEP_MS = 24 * 3_600_000;

function subjectHash(subject: string): string {
  return createHash('sha256').update(subject).digest('hex');
}

export class Throttle {
  readonly #database: Database;
  readonly #clock: () => number;

  constructor(database: Database, clock: () => number = Date.now) {
    this.#database = database;
    this.#clock = clock;
  }

  /** Whole seconds until one more event fits within every limit; 0 when it fits now. */
  async retryAfterSeconds(subject: string, limits: readonly Limit[]): Promise<number> {
    const now = this.#clock();
    const longest = Math.max(...limits.map((l) => l.windowMs));
    const most = Math.max(...limits.map((l) => l.count));
    const times = (await this.#database.db
      .selectFrom('throttle_events')
      .select('at')
      .where('subject', '=', subjectHash(subject))
      .where('at', '>', new Date(now - longest).toISOString())
      .orderBy('at', 'desc')
      .limit(most)
      .execute()).map((row) => Date.parse(row.at));
    let waitMs = 0;
    for (const limit of limits) {
      const inWindow = times.filter((t) => t > now - limit.windowMs);
      // The newest `count` events in the window: one more fits once the oldest of them leaves it.
      if (inWindow.length >= limit.count) waitMs = Math.max(waitMs, inWindow[limit.count - 1]! + limit.windowMs - now);
    }
    return Math.ceil(waitMs / 1000);
  }

  /** Records one event when it fits within every limit; as `retryAfterSeconds`, 0 when it was recorded. */
  async take(subject: string, limits: readonly Limit[]): Promise<number> {
    const retryAfterSeconds = await this.retryAfterSeconds(subject, limits);
    if (retryAfterSeconds === 0) await this.record(subject);
    return retryAfterSeconds;
  }

  async record(subject: string): Promise<void> {
    const now = this.#clock();
    await this.#database.db.insertInto('throttle_events').values({ subject: subjectHash(subject), at: new Date(now).toISOString() }).execute();
    await this.#database.db.deleteFrom('throttle_events').where('at', '<', new Date(now - KEEP_MS).toISOString()).execute();
  }

  async clear(subject: string): Promise<void> {
    await this.#database.db.deleteFrom('throttle_events').where('subject', '=', subjectHash(subject)).execute();
  }
}
