// Raw receiver lines in, decoded messages with their metadata out, every line accounted for.
// Counting invariant: lines = accepted + pending + sum(rejected).
import { AisAssembler } from './assembler.ts';
import type { DroppedGroup } from './assembler.ts';
import { decodeAisPayload } from './decode.ts';
import { parseAisSentence } from './nmea.ts';
import type { AisSentence } from './nmea.ts';
import { AIS_REJECT_REASONS } from './reasons.ts';
import type { AisRejectReason } from './reasons.ts';
import type { AisMessage } from './types.ts';

export interface AisPipelineOptions {
  /** Incomplete multi-sentence groups are dropped this long (ms) after their first fragment. Default 10 000. */
  timeoutMs?: number;
  /** Cap on incomplete groups held at once. Default 1000. */
  maxPendingGroups?: number;
}

/** A decoded message and where it came from. */
export interface AisPipelineMessage {
  message: AisMessage;
  /** Tag-block `s:` when present, else the feed id. */
  source: string;
  feedId: string;
  channel: string;
  /** Receive time (ms) of the line that completed the message. */
  receivedAt: number;
  /** Tag-block `c:` time (ms), when the receiver sent one. */
  tagTime: number | null;
  sentences: AisSentence[];
}

export interface AisPipelineCounts {
  /** Lines pushed. */
  lines: number;
  /** Lines that are part of a decoded message. */
  accepted: number;
  /** Lines held in incomplete multi-sentence groups. */
  pending: number;
  /** Decoded messages. */
  messages: number;
  /** Rejected lines by reason. */
  rejected: Record<AisRejectReason, number>;
  /** Decoded messages by AIS message type. */
  messagesByType: Record<number, number>;
}

function emptyRejectCounts(): Record<AisRejectReason, number> {
  const counts = {} as Record<AisRejectReason, number>;
  for (const reason of AIS_REJECT_REASONS) counts[reason] = 0;
  return counts;
}

/**
 * Frames, assembles and decodes receiver lines. Never throws; every line ends up accepted, pending
 * or counted under a rejection reason in `counts`, a plain object callers can read at any time.
 */
export class AisPipeline {
  readonly counts: AisPipelineCounts = {
    lines: 0,
    accepted: 0,
    pending: 0,
    messages: 0,
    rejected: emptyRejectCounts(),
    messagesByType: {},
  };
  readonly #assembler: AisAssembler;

  constructor(options: AisPipelineOptions = {}) {
    this.#assembler = new AisAssembler({
      timeoutMs: options.timeoutMs,
      maxPendingGroups: options.maxPendingGroups,
      onDrop: (group: DroppedGroup) => {
        this.counts.pending -= group.fragments;
        this.counts.rejected.incomplete_group += group.fragments;
      },
    });
  }

  /**
   * Takes one received line; returns the decoded message when this line completes one, else null.
   * `receivedAt` (ms since the epoch) drives the multi-sentence timeout.
   */
  push(line: string, receivedAt: number = Date.now(), feedId = ''): AisPipelineMessage | null {
    const counts = this.counts;
    counts.lines++;
    const framed = parseAisSentence(line);
    if (!framed.ok) {
      counts.rejected[framed.reason]++;
      return null;
    }
    const assembled = this.#assembler.push(framed.sentence, receivedAt, feedId);
    if (assembled.status === 'duplicate') {
      counts.rejected.duplicate++;
      return null;
    }
    if (assembled.status === 'pending') {
      counts.pending++;
      return null;
    }
    const payload = assembled.message;
    const lineCount = payload.sentences.length;
    counts.pending -= lineCount - 1;
    const decoded = decodeAisPayload(payload.payload, payload.fillBits);
    if (!decoded.ok) {
      counts.rejected[decoded.reason] += lineCount;
      return null;
    }
    counts.accepted += lineCount;
    counts.messages++;
    const type = decoded.message.type;
    counts.messagesByType[type] = (counts.messagesByType[type] ?? 0) + 1;
    return {
      message: decoded.message,
      source: payload.source ?? feedId,
      feedId,
      channel: payload.channel,
      receivedAt,
      tagTime: payload.tagTime,
      sentences: payload.sentences,
    };
  }

  /** Drops incomplete groups that have timed out by `now` (ms); call it from a periodic tick. */
  expire(now: number = Date.now()): void {
    this.#assembler.expire(now);
  }

  /** Decodes every line of an iterable, yielding the messages (e.g. a file replay or `lamis decode`). */
  *decodeLines(lines: Iterable<string>, receivedAt: number = Date.now(), feedId = ''): Generator<AisPipelineMessage> {
    for (const line of lines) {
      const message = this.push(line, receivedAt, feedId);
      if (message !== null) yield message;
    }
  }
}
