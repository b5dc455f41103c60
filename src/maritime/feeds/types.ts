// The contract between a feed adapter (UDP, TCP, aisstream, file replay) and whoever consumes it.
// A feed only moves data: NMEA lines go to the sink as received, for the AIS pipeline to frame,
// assemble, decode and count; only the aisstream JSON feed hands over already decoded messages.
import type { AisMessage } from '../ais/index.ts';
import type { FeedSource } from '../vessels/store.ts';

export type { FeedSource } from '../vessels/store.ts';

/** Where a feed delivers what it receives. Calls are synchronous; a sink that throws is logged, never fatal. */
export interface FeedSink {
  /** Raw NMEA lines as received, line endings stripped (a chunk may hold several). Blank lines are never passed. */
  lines(lines: string[], receivedAt: number): void;
  /** Messages that arrive already decoded (the aisstream JSON feed), as the codec's AisMessage. */
  messages(messages: AisMessage[], receivedAt: number): void;
  /**
   * While the sink is behind, a promise that settles once it has caught up: a feed that can make
   * its sender wait (TCP) pauses reading until then. Null when the sink keeps up.
   */
  backlog?(): Promise<void> | null;
}

/** `simulator` is the embedded simulated fleet (simulator/feed.ts); the rest are built from AIS_FEEDS. */
export type FeedKind = 'udp' | 'tcp' | 'tcp-listen' | 'aisstream' | 'file' | 'simulator';

/**
 * - `starting`: start() called, not yet bound / connected / reading.
 * - `listening`: a UDP socket or TCP server is bound (a TCP server with no client connected).
 * - `connected`: data can flow: a client connection is up, a server has clients, a file is being read.
 * - `reconnecting`: a connection was lost or refused; the next attempt is scheduled.
 * - `finished`: a file replay reached the end of its file.
 * - `stopped`: stop() was called, or start() never was.
 * - `failed`: the feed cannot work as configured (bind error, missing file, rejected API key).
 *   A rejected aisstream key keeps retrying slowly and stays `failed` until a subscription succeeds.
 */
export type FeedState = 'starting' | 'listening' | 'connected' | 'reconnecting' | 'finished' | 'stopped' | 'failed';

/**
 * Why an aisstream JSON message was not passed on:
 * - `malformed`: not JSON, or not the `{ MessageType, Message: { [MessageType]: {...} } }` envelope.
 * - `unsupported`: a message type the codec does not carry (safety text, interrogations, ...).
 * - `invalid`: the service marked it `Valid: false`, or a field is missing or outside its range.
 */
export type FeedRejectReason = 'malformed' | 'unsupported' | 'invalid';

export const FEED_REJECT_REASONS: readonly FeedRejectReason[] = ['malformed', 'unsupported', 'invalid'];

/** A snapshot of one feed, JSON-ready (snake_case like the API). */
export interface FeedStatus {
  id: string;
  kind: FeedKind;
  source: FeedSource;
  state: FeedState;
  /** When the feed entered `state`, ISO 8601 UTC. */
  since: string;
  /** What a person needs to know about the state: the last error, the bound address, the retry delay. */
  detail: string | null;
  /** Bytes received (file bytes read for a replay). */
  bytes: number;
  /** Lines handed to the sink. */
  lines: number;
  /** Decoded messages handed to the sink (aisstream only). */
  messages: number;
  /** Lines longer than the line-length cap: passed on cut to the cap, the rest of the line dropped. */
  oversized_lines: number;
  /** Messages not passed on, by reason (aisstream only; line feeds leave rejection to the pipeline). */
  rejected: Record<FeedRejectReason, number>;
  /** Reconnection attempts made (client feeds). */
  reconnects: number;
  /** Connections open now (1 for a connected client, the client count for a TCP server). */
  connections: number;
  /** When data last arrived, ISO 8601 UTC. */
  last_data_at: string | null;
}

export interface Feed {
  readonly id: string;
  readonly kind: FeedKind;
  readonly source: FeedSource;
  /**
   * Starts the feed. Resolves once it is running: a listener bound, a client's first connection
   * attempt under way (a receiver that is down at start does not hold up the service), a file open.
   * Rejects, with the state `failed`, only when it cannot run at all: the address is in use, the
   * file is missing, no aisstream API key. Called once.
   */
  start(sink: FeedSink): Promise<void>;
  /** Closes every socket, timer and file handle; resolves when they are closed. Safe to call twice. */
  stop(): Promise<void>;
  status(): FeedStatus;
}

export type FeedLogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Log hook: `detail` carries the feed id and structured context; it never holds credentials. */
export type FeedLogger = (level: FeedLogLevel, message: string, detail: Record<string, unknown>) => void;
