// Joins the fragments of multi-sentence AIS messages. Time only advances through the timestamps the
// caller passes in (no timers), which keeps the timeout deterministic and testable.
import type { AisSentence } from './nmea.ts';

/** A complete message payload with the sentences that carried it. */
export interface AssembledPayload {
  payload: string;
  fillBits: number;
  sentences: AisSentence[];
  /** Tag-block `s:` of the first fragment that has one, else null. */
  source: string | null;
  /** Caller-given feed identifier. */
  feedId: string;
  channel: string;
  /** Tag-block `c:` time (ms) of the first fragment that has one, else null. */
  tagTime: number | null;
  /** Receive time (ms) of the first fragment. */
  firstReceivedAt: number;
  /** Receive time (ms) of the fragment that completed the message. */
  receivedAt: number;
}

/** A group given up on; `fragments` is how many of its sentences were held. */
export interface DroppedGroup {
  feedId: string;
  source: string | null;
  channel: string;
  sequenceId: number | null;
  fragments: number;
  cause: 'timeout' | 'evicted' | 'superseded';
}

export type AssemblyResult =
  | { status: 'complete'; message: AssembledPayload }
  | { status: 'pending' }
  | { status: 'duplicate' };

export interface AssemblerOptions {
  /** Drop an incomplete group this long (ms) after its first fragment arrived. Default 10 000. */
  timeoutMs?: number;
  /** Most groups held at once; beyond it the oldest is dropped. Default 1000. */
  maxPendingGroups?: number;
  /** Told about every dropped group (timeout, eviction, superseded). */
  onDrop?: (group: DroppedGroup) => void;
}

interface PendingGroup {
  fragments: (AisSentence | undefined)[];
  received: number;
  firstReceivedAt: number;
  feedId: string;
  channel: string;
  sequenceId: number | null;
}

const PENDING: AssemblyResult = { status: 'pending' };
const DUPLICATE: AssemblyResult = { status: 'duplicate' };

function sourceOf(sentences: readonly AisSentence[]): string | null {
  for (const sentence of sentences) {
    const source = sentence.tagBlock?.source;
    if (source != null) return source;
  }
  return null;
}

function tagTimeOf(sentences: readonly AisSentence[]): number | null {
  for (const sentence of sentences) {
    const time = sentence.tagBlock?.time;
    if (time != null) return time;
  }
  return null;
}

export class AisAssembler {
  readonly #timeoutMs: number;
  readonly #maxPendingGroups: number;
  readonly #onDrop: ((group: DroppedGroup) => void) | undefined;
  // Insertion order is arrival order of each group's first fragment, so expiry scans from the front.
  readonly #pending = new Map<string, PendingGroup>();

  constructor(options: AssemblerOptions = {}) {
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#maxPendingGroups = Math.max(1, options.maxPendingGroups ?? 1000);
    this.#onDrop = options.onDrop;
  }

  /** Number of incomplete groups currently held. */
  get pendingGroups(): number {
    return this.#pending.size;
  }

  /** Number of fragments currently held in incomplete groups. */
  get pendingFragments(): number {
    let count = 0;
    for (const group of this.#pending.values()) count += group.received;
    return count;
  }

  /**
   * Adds one framed sentence received at `receivedAt` (ms) on feed `feedId`. Single-sentence messages
   * complete at once; fragments are held until their group is complete.
   */
  push(sentence: AisSentence, receivedAt: number, feedId = ''): AssemblyResult {
    if (this.#pending.size > 0) this.expire(receivedAt);
    if (sentence.fragmentCount === 1) {
      return { status: 'complete', message: this.#assemble([sentence], receivedAt, receivedAt, feedId) };
    }

    const key = this.#keyOf(sentence, feedId);
    let group = this.#pending.get(key);
    const index = sentence.fragmentNumber - 1;
    if (group !== undefined) {
      const held = group.fragments[index];
      if (held !== undefined) {
        if (held.payload === sentence.payload && held.fillBits === sentence.fillBits) return DUPLICATE;
        // Same key, different content: the old message lost a fragment and its id was reused.
        this.#drop(key, group, 'superseded');
        group = undefined;
      }
    }
    if (group === undefined) {
      if (this.#pending.size >= this.#maxPendingGroups) this.#evictOldest();
      group = {
        fragments: new Array<AisSentence | undefined>(sentence.fragmentCount).fill(undefined),
        received: 0,
        firstReceivedAt: receivedAt,
        feedId,
        channel: sentence.channel,
        sequenceId: sentence.sequenceId,
      };
      this.#pending.set(key, group);
    }
    group.fragments[index] = sentence;
    group.received++;
    if (group.received < group.fragments.length) return PENDING;

    this.#pending.delete(key);
    return {
      status: 'complete',
      message: this.#assemble(group.fragments as AisSentence[], group.firstReceivedAt, receivedAt, feedId),
    };
  }

  /** Drops every group whose first fragment arrived more than the timeout before `now` (ms). */
  expire(now: number): void {
    for (const [key, group] of this.#pending) {
      if (now - group.firstReceivedAt <= this.#timeoutMs) break;
      this.#drop(key, group, 'timeout');
    }
  }

  /** Drops all pending groups (e.g. at shutdown or when a feed reconnects). */
  clear(): void {
    for (const [key, group] of this.#pending) this.#drop(key, group, 'evicted');
  }

  #keyOf(sentence: AisSentence, feedId: string): string {
    const tag = sentence.tagBlock;
    // NMEA 4.10 groups carry their own id; later fragments of a group often omit `s:`.
    if (tag?.group != null) return `${feedId}\u0000g\u0000${tag.group.id}\u0000${sentence.fragmentCount}`;
    const source = tag?.source ?? '';
    return `${feedId}\u0000${source}\u0000${sentence.channel}\u0000${sentence.sequenceId ?? ''}\u0000${sentence.fragmentCount}`;
  }

  #evictOldest(): void {
    for (const [key, group] of this.#pending) {
      this.#drop(key, group, 'evicted');
      return;
    }
  }

  #drop(key: string, group: PendingGroup, cause: DroppedGroup['cause']): void {
    this.#pending.delete(key);
    this.#onDrop?.({
      feedId: group.feedId,
      source: sourceOf(group.fragments.filter((fragment): fragment is AisSentence => fragment !== undefined)),
      channel: group.channel,
      sequenceId: group.sequenceId,
      fragments: group.received,
      cause,
    });
  }

  #assemble(sentences: AisSentence[], firstReceivedAt: number, receivedAt: number, feedId: string): AssembledPayload {
    let payload = sentences[0].payload;
    for (let i = 1; i < sentences.length; i++) payload += sentences[i].payload;
    return {
      payload,
      fillBits: sentences[sentences.length - 1].fillBits,
      sentences,
      source: sourceOf(sentences),
      feedId,
      channel: sentences[0].channel,
      tagTime: tagTimeOf(sentences),
      firstReceivedAt,
      receivedAt,
    };
  }
}
