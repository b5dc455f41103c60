// Test helpers for the feed adapters: a sink that records what it gets, and polling with a deadline.
import type { AisMessage } from '../ais/index.ts';
import { positionReport, sentences, staticVoyage } from '../vessels/fixtures.ts';
import type { FeedSink } from './types.ts';

/** Sentences made with the project's encoder: two single-line position reports and a two-line type 5. */
export const SAMPLE = {
  position: sentences(positionReport(244660000, 52.1, 4.2))[0]!,
  position2: sentences(positionReport(211281610, 53.5, 8.6))[0]!,
  voyage: sentences(staticVoyage(244660000), 3),
};

export interface RecordingSink extends FeedSink {
  /** Every line, in arrival order. */
  received: string[];
  /** Each sink.lines call: its lines and receivedAt. */
  batches: { lines: string[]; receivedAt: number }[];
  messages_: { message: AisMessage; receivedAt: number }[];
}

export function recordingSink(): RecordingSink {
  const sink: RecordingSink = {
    received: [],
    batches: [],
    messages_: [],
    lines(lines, receivedAt) {
      sink.received.push(...lines);
      sink.batches.push({ lines: [...lines], receivedAt });
    },
    messages(messages, receivedAt) {
      for (const message of messages) sink.messages_.push({ message, receivedAt });
    },
  };
  return sink;
}

/** Polls `condition` every 5 ms until it holds; fails after `timeoutMs` with `what`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
