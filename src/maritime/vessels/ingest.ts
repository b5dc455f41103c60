// Where every AIS feed ends: lines through a pipeline of their own feed (so multi-sentence groups
// never mix across feeds and rejections are counted per feed), decoded messages into the live
// store, and each change on to its listeners (the bus, the track recorder).
import { AisPipeline, type AisMessage, type AisPipelineCounts } from '../ais/index.ts';
import type { Change, FeedSource, VesselStore } from './store.ts';

/**
 * A receiver's own tag-block time (`c:`) is when the station heard the message, which is more
 * exact than when it reached us; it is trusted only this close to our clock, so a receiver with a
 * wrong clock (or an old recording) cannot move positions into the past or the future.
 */
export const TAG_TIME_TOLERANCE_MS = 5 * 60_000;

export interface FeedCounts extends AisPipelineCounts {
  feed: string;
  source: FeedSource;
  /** Messages that arrived already decoded (aisstream JSON). */
  decoded: number;
}

interface FeedState {
  pipeline: AisPipeline;
  counts: FeedCounts;
}

export class AisIngest {
  readonly #store: VesselStore;
  readonly #listeners: ((change: Change) => void)[] = [];
  readonly #feeds = new Map<string, FeedState>();

  constructor(store: VesselStore) {
    this.#store = store;
  }

  /** Called with every change to a vessel, in order. */
  onChange(listener: (change: Change) => void): void {
    this.#listeners.push(listener);
  }

  /** Raw NMEA lines from one feed. */
  lines(feed: string, source: FeedSource, lines: readonly string[], receivedAt: number): void {
    const { pipeline } = this.#feed(feed, source);
    for (const line of lines) {
      const decoded = pipeline.push(line, receivedAt, feed);
      if (!decoded) continue;
      const tagged = decoded.tagTime !== null && Math.abs(decoded.tagTime - receivedAt) <= TAG_TIME_TOLERANCE_MS;
      this.#apply(decoded.message, tagged ? decoded.tagTime! : receivedAt, source);
    }
  }

  /** Messages a feed delivers already decoded. */
  messages(feed: string, source: FeedSource, messages: readonly AisMessage[], receivedAt: number): void {
    const state = this.#feed(feed, source);
    for (const message of messages) {
      state.counts.decoded++;
      this.#apply(message, receivedAt, source);
    }
  }

  /** Drops multi-sentence groups that have waited too long (their lines count as rejected). */
  expire(now: number): void {
    for (const state of this.#feeds.values()) state.pipeline.expire(now);
  }

  /** Per-feed counts, live objects: read, do not keep. */
  counts(): FeedCounts[] {
    return [...this.#feeds.values()].map((state) => state.counts);
  }

  /** The counts of one feed (a feed that has sent nothing yet starts at zero). */
  feedCounts(feed: string, source: FeedSource): FeedCounts {
    return this.#feed(feed, source).counts;
  }

  #feed(feed: string, source: FeedSource): FeedState {
    let state = this.#feeds.get(feed);
    if (!state) {
      const pipeline = new AisPipeline();
      // The pipeline's counts object is updated in place; the feed's view extends it.
      const counts = Object.assign(pipeline.counts, { feed, source, decoded: 0 }) as FeedCounts;
      state = { pipeline, counts };
      this.#feeds.set(feed, state);
    }
    return state;
  }

  #apply(message: AisMessage, at: number, source: FeedSource): void {
    const change = this.#store.apply(message, at, source);
    if (!change) return;
    for (const listener of this.#listeners) listener(change);
  }
}
