// What one stream has yet to send, and when. Two mechanisms keep it bounded:
//
// - Pacing: a vessel's position goes out at most once per interval. The first goes at once; one
//   arriving within the interval waits as the vessel's pending position, and a newer one replaces
//   it (coalesced), so the position sent when the interval ends is always the latest.
// - Slow consumers: while more than the soft bound waits in the socket, frames are held instead,
//   the latest per vessel and kind (an older one held is dropped), and sent as the socket drains
//   (`drain`, and every tick).
//   When what waits (socket plus held frames) stays past the hard bound for the slow-close time,
//   the stream is given up (`onSlow`).
// - The tick visits only the outboxes that have something for it (`onDue`, `due`): with thousands
//   of streams, most have nothing waiting at any one tick.
//
// Memory per stream is thus at most a pending and a held frame per vessel plus the socket's soft
// bound; the frames themselves are shared between the streams they go to.

export interface StreamStats {
  /** Frames written to sockets, by event. */
  frames: Record<'position' | 'static' | 'ready' | 'subscribed' | 'error' | 'heartbeat', number>;
  /** Positions replaced by a newer one while waiting for their vessel's interval to end. */
  coalesced: number;
  /** Frames replaced by a newer one while held for a slow consumer. */
  dropped: number;
}

export function emptyStats(): StreamStats {
  return { frames: { position: 0, static: 0, ready: 0, subscribed: 0, error: 0, heartbeat: 0 }, coalesced: 0, dropped: 0 };
}

export interface OutboxOptions {
  /** Bytes waiting in the socket past which frames are held, the latest per vessel. */
  softLimitBytes: number;
  /** Bytes waiting (socket and held frames) that, sustained for `slowCloseMs`, give the stream up. */
  hardLimitBytes: number;
  slowCloseMs: number;
  intervalMs: number;
  /** Writes a frame to the socket. */
  write(frame: Buffer): void;
  /** Bytes written to the socket and not yet sent. */
  buffered(): number;
  /** Called once when the consumer stayed past the hard bound for `slowCloseMs`. */
  onSlow(): void;
  /** Called when the outbox may have come to need the tick (see `due`): the caller ticks it until it is not. */
  onDue(): void;
  stats: StreamStats;
}

/** Keys of held frames: positions by MMSI, static data by minus the MMSI (MMSIs are positive). */
const staticKey = (mmsi: number) => -mmsi;
/** How often the send times of vessels whose interval ended are forgotten. */
const FORGET_MS = 10_000;

export class Outbox {
  readonly #options: OutboxOptions;
  #intervalMs: number;
  /** When each vessel's position last went out; those whose interval ended are forgotten every FORGET_MS. */
  readonly #lastSent = new Map<number, number>();
  /** The latest position of each vessel whose interval still runs: few, as most vessels report less often. */
  readonly #pending = new Map<number, Buffer>();
  #forgotAt = 0;
  readonly #held = new Map<number, Buffer>();
  #heldBytes = 0;
  #pastHardSince: number | null = null;
  #slow = false;

  constructor(options: OutboxOptions) {
    this.#options = options;
    this.#intervalMs = options.intervalMs;
  }

  /** Bytes waiting: in the socket and held. */
  get waitingBytes(): number {
    return this.#options.buffered() + this.#heldBytes;
  }

  get pendingCount(): number {
    return this.#pending.size;
  }

  get heldCount(): number {
    return this.#held.size;
  }

  /** Whether the tick has work here: a position waiting for its interval, a frame held, or more waiting than the hard bound. */
  get due(): boolean {
    return this.#pending.size > 0 || this.#held.size > 0 || this.waitingBytes > this.#options.hardLimitBytes;
  }

  /** A new subscription: its interval applies, and what waited for the old one is dropped. */
  restart(intervalMs: number): void {
    this.#intervalMs = intervalMs;
    this.#pending.clear();
    this.#held.clear();
    this.#heldBytes = 0;
  }

  position(mmsi: number, frame: Buffer, now: number): void {
    const last = this.#lastSent.get(mmsi);
    if (last !== undefined && now - last < this.#intervalMs) {
      const size = this.#pending.size;
      this.#pending.set(mmsi, frame);
      if (this.#pending.size === size) this.#options.stats.coalesced++;
      else if (size === 0) this.#options.onDue();
      return;
    }
    if (now - this.#forgotAt >= FORGET_MS) this.#forget(now);
    // The interval ended before the tick sent what waited: this newer position goes instead.
    if (this.#pending.delete(mmsi)) this.#options.stats.coalesced++;
    this.#sendPosition(mmsi, frame, now);
  }

  static(mmsi: number, frame: Buffer): void {
    this.#deliver(staticKey(mmsi), frame);
  }

  /** Sends the pending positions whose interval ended, drains held frames, watches the hard bound. */
  tick(now: number): void {
    for (const [mmsi, frame] of this.#pending) {
      if (now - this.#lastSent.get(mmsi)! < this.#intervalMs) continue;
      this.#pending.delete(mmsi);
      this.#sendPosition(mmsi, frame, now);
    }
    if (this.#held.size) this.drain();
    if (this.waitingBytes <= this.#options.hardLimitBytes) {
      this.#pastHardSince = null;
      return;
    }
    this.#pastHardSince ??= now;
    if (!this.#slow && now - this.#pastHardSince >= this.#options.slowCloseMs) {
      this.#slow = true;
      this.#options.onSlow();
    }
  }

  /** Forgets the send times of vessels whose interval ended: only a position sends one, so only a position needs this. */
  #forget(now: number): void {
    this.#forgotAt = now;
    for (const [mmsi, at] of this.#lastSent) if (now - at >= this.#intervalMs) this.#lastSent.delete(mmsi);
  }

  #sendPosition(mmsi: number, frame: Buffer, now: number): void {
    this.#lastSent.set(mmsi, now);
    this.#deliver(mmsi, frame);
  }

  #deliver(key: number, frame: Buffer): void {
    if (this.#held.size) this.drain();
    const buffered = this.#options.buffered();
    if (this.#held.size === 0 && buffered <= this.#options.softLimitBytes) {
      this.#write(key, frame, buffered);
      return;
    }
    const previous = this.#held.get(key);
    if (previous) {
      this.#heldBytes -= previous.length;
      this.#options.stats.dropped++;
    } else if (this.#held.size === 0) {
      this.#options.onDue();
    }
    this.#held.set(key, frame);
    this.#heldBytes += frame.length;
  }

  /** Sends held frames while the socket is under the soft bound; call it when the socket drains. */
  drain(): void {
    for (const [key, frame] of this.#held) {
      const buffered = this.#options.buffered();
      if (buffered > this.#options.softLimitBytes) return;
      this.#held.delete(key);
      this.#heldBytes -= frame.length;
      this.#write(key, frame, buffered);
    }
  }

  /** `buffered`: the bytes waiting before this frame; the tick is asked for when the frame takes them past the hard bound. */
  #write(key: number, frame: Buffer, buffered: number): void {
    this.#options.write(frame);
    this.#options.stats.frames[key < 0 ? 'static' : 'position']++;
    if (buffered + frame.length > this.#options.hardLimitBytes && this.#pastHardSince === null) this.#options.onDue();
  }
}
