// Where every AIS feed ends: lines through a pipeline of their own feed and sender (so
// multi-sentence groups never mix across feeds or senders), decoded messages into the live store,
// and each change on to its listeners (the bus, the track recorder). Lines and rejections are
// counted per feed, all its senders together: the counts go to the public /metrics and /readyz,
// which name feeds but no sender (uploads are one feed, whichever key sent them).
import { AIS_REJECT_REASONS, AisPipeline, type AisMessage, type AisPipelineCounts, type AisRejectReason } from '../ais/index.ts';
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
  source: FeedSource;
  /** By sender. */
  pipelines: Map<string, AisPipeline>;
  decoded: number;
}

/** The feed's counts, summed over its senders' pipelines. */
function countsOf(feed: string, state: FeedState): FeedCounts {
  const counts: FeedCounts = { feed, source: state.source, decoded: state.decoded, lines: 0, accepted: 0, pending: 0, messages: 0, rejected: Object.fromEntries(AIS_REJECT_REASONS.map((reason) => [reason, 0])) as Record<AisRejectReason, number>, messagesByType: {} };
  for (const { counts: part } of state.pipelines.values()) {
    counts.lines += part.lines;
    counts.accepted += part.accepted;
    counts.pending += part.pending;
    counts.messages += part.messages;
    for (const reason of AIS_REJECT_REASONS) counts.rejected[reason] += part.rejected[reason];
    for (const [type, count] of Object.entries(part.messagesByType)) counts.messagesByType[Number(type)] = (counts.messagesByType[Number(type)] ?? 0) + count;
  }
  return counts;
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

  /** Raw NMEA lines from one feed, and one `sender` of it (an uploading key), whose multi-sentence groups are reassembled apart. */
  lines(feed: string, source: FeedSource, lines: readonly string[], receivedAt: number, sender = ''): void {
    const { pipelines } = this.#feed(feed, source);
    let pipeline = pipelines.get(sender);
    if (!pipeline) pipelines.set(sender, (pipeline = new AisPipeline()));
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
      state.decoded++;
      this.#apply(message, receivedAt, source);
    }
  }

  /** Drops multi-sentence groups that have waited too long (their lines count as rejected). */
  expire(now: number): void {
    for (const state of this.#feeds.values()) for (const pipeline of state.pipelines.values()) pipeline.expire(now);
  }

  /** Per-feed counts as they are now. */
  counts(): FeedCounts[] {
    return [...this.#feeds].map(([feed, state]) => countsOf(feed, state));
  }

  /** The counts of one feed as they are now (a feed that has sent nothing yet starts at zero). */
  feedCounts(feed: string, source: FeedSource): FeedCounts {
    return countsOf(feed, this.#feed(feed, source));
  }

  #feed(feed: string, source: FeedSource): FeedState {
    let state = this.#feeds.get(feed);
    if (!state) this.#feeds.set(feed, (state = { source, pipelines: new Map(), decoded: 0 }));
    return state;
  }

  #apply(message: AisMessage, at: number, source: FeedSource): void {
    const change = this.#store.apply(message, at, source);
    if (!change) return;
    for (const listener of this.#listeners) listener(change);
  }
}
