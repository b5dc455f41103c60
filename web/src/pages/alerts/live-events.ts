// The tab's one connection to the event stream (`/v3/stream/events`), shared by the header's badge,
// the alerts inbox and the fleet feed on Home: the SDK's EventStreamClient over the browser's
// WebSocket, with the dashboard's key in its first message (as the map's AIS stream does). The SDK
// reconnects and resumes after the last alert's cursor, so nothing changed meanwhile is missed.
// It also keeps the ids of the open events nobody acknowledged (the badge's count): read once from
// `GET /v3/events?state=open` when the stream is admitted, then moved by each `alert`.
import { EventStreamClient, type FleetFeedUpdate } from '@lamis/sdk';
import { useEffect, useState } from 'preact/hooks';
import { data, dataKey, forgetDataKey } from '../../api/data-key.ts';
import { errorMessage } from '../../api/errors.ts';
import { onIdentityChange } from '../../api/session.ts';
import { reconnectReason, type StreamPhase } from '../map/live-stream.ts';
import { countChange, needsAttention, type LamisEvent } from './alerts-model.ts';

export interface LiveEventsStatus {
  phase: StreamPhase;
  /** Why it is not live, in words. */
  message: string | null;
  /** Open events nobody has acknowledged; null until known (or when the key is out of reach). */
  attention: number | null;
}

type AlertListener = (event: LamisEvent) => void;
type FeedListener = (entry: FleetFeedUpdate) => void;

/** Pages of open events read for the count (100 each): an organisation with more sees the first 1,000 counted. */
const COUNT_PAGES = 10;
/** Without the stream (the Starter plan has none), the count is read again this often. */
const POLL_MS = 120_000;

class LiveEvents {
  #client: EventStreamClient | null = null;
  #users = 0;
  #alertListeners = new Set<AlertListener>();
  #feedListeners = new Set<FeedListener>();
  #statusListeners = new Set<(status: LiveEventsStatus) => void>();
  #resyncListeners = new Set<() => void>();
  #feedResyncListeners = new Set<() => void>();
  #status: LiveEventsStatus = { phase: 'closed', message: null, attention: null };
  #attention: Set<string> | null = null;
  /** Alerts that came while the count was being read, applied again on top of it. */
  #pending: LamisEvent[] | null = null;
  #poll: ReturnType<typeof setInterval> | null = null;
  #renewedKey = false;

  get status(): LiveEventsStatus {
    return this.#status;
  }

  /** Holds the connection open while the returned function has not been called. */
  use(): () => void {
    if (this.#users++ === 0) void this.#start();
    return () => {
      if (--this.#users === 0) this.#stop();
    };
  }

  onAlert(listener: AlertListener): () => void {
    this.#alertListeners.add(listener);
    return () => this.#alertListeners.delete(listener);
  }

  onFeed(listener: FeedListener): () => void {
    this.#feedListeners.add(listener);
    return () => this.#feedListeners.delete(listener);
  }

  /** Called when alerts may have been missed (back without a cursor to resume after): read again. */
  onResync(listener: () => void): () => void {
    this.#resyncListeners.add(listener);
    return () => this.#resyncListeners.delete(listener);
  }

  /** Called after a drop, when feed entries changed meanwhile were not sent. */
  onFeedResync(listener: () => void): () => void {
    this.#feedResyncListeners.add(listener);
    return () => this.#feedResyncListeners.delete(listener);
  }

  onStatus(listener: (status: LiveEventsStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** An event as a REST answer gave it (an acknowledgement): counted at once, before its alert arrives. */
  noteEvent(event: LamisEvent): void {
    this.#apply(event);
  }

  /** After a change of user or organisation: the old key and count are the other identity's. */
  restart(): void {
    if (this.#users === 0) return;
    this.#stop();
    // After the session has taken the change in (a sign-out unmounts the users first).
    setTimeout(() => {
      if (this.#users > 0 && !this.#client) void this.#start();
    }, 0);
  }

  async #start(): Promise<void> {
    this.#report({ phase: 'connecting', message: null });
    let secret: string;
    let source: 'created' | 'entered';
    try {
      ({ secret, source } = await dataKey());
    } catch (error) {
      this.#report({ phase: 'refused', message: errorMessage(error) });
      return;
    }
    if (this.#users === 0 || this.#client) return;
    const client = new EventStreamClient({ apiKey: secret, url: window.location.origin, WebSocket, auth: 'message' });
    this.#client = client;
    let admitted = false;
    client.on('ready', () => {
      this.#report({ phase: 'live', message: null });
      const first = !admitted;
      admitted = true;
      // A connection that resumes after a cursor is replayed what it missed; one that has no cursor
      // yet (no alert came before the drop) cannot resume, so the count and the lists are read again.
      if (first || client.lastCursor === undefined) {
        if (this.#pending === null) void this.#readCount();
        if (!first) this.#resyncListeners.forEach((listener) => listener());
      }
      // Feed entries are never replayed: after any drop they are read again.
      if (!first) this.#feedResyncListeners.forEach((listener) => listener());
    });
    client.on('alert', (event) => this.#apply(event as LamisEvent));
    client.on('feed', (entry) => this.#feedListeners.forEach((listener) => listener(entry)));
    client.on('reconnecting', ({ code, reason }) => this.#report({ phase: 'reconnecting', message: reconnectReason(code, reason) }));
    client.on('close', (close) => {
      if (close.reconnecting || this.#client !== client) return;
      this.#client = null;
      if (close.code === 4401 && source === 'created' && !this.#renewedKey) {
        // Revoked or rotated away elsewhere: a new key, once, as the REST calls do.
        this.#renewedKey = true;
        forgetDataKey();
        void this.#start();
        return;
      }
      if (close.code === 4403) {
        this.#report({ phase: 'refused', message: 'Your plan has no live streams: alerts are checked every 2 minutes. Pro and Enterprise bring them as they happen.' });
        this.#pollCount();
        return;
      }
      this.#report({ phase: close.code === 1000 ? 'closed' : 'refused', message: `The alert stream closed (${close.reason || `code ${close.code}`}).` });
    });
    await client.connect().catch(() => {});
  }

  #stop(): void {
    const client = this.#client;
    this.#client = null;
    void client?.close();
    if (this.#poll) clearInterval(this.#poll);
    this.#poll = null;
    this.#attention = null;
    this.#pending = null;
    this.#renewedKey = false;
    this.#report({ phase: 'closed', message: null });
  }

  #pollCount(): void {
    void this.#readCount();
    this.#poll ??= setInterval(() => void this.#readCount(), POLL_MS);
  }

  async #readCount(): Promise<void> {
    this.#pending = [];
    try {
      const ids = new Set<string>();
      let cursor: string | undefined;
      for (let page = 0; page < COUNT_PAGES; page++) {
        const answer = await data('GET /v3/events', { query: { state: 'open', limit: 100, ...(cursor ? { cursor } : {}) } });
        for (const event of answer.data) if (needsAttention(event)) ids.add(event.id);
        if (!answer.next_cursor) break;
        cursor = answer.next_cursor;
      }
      const pending = this.#pending ?? [];
      this.#pending = null;
      this.#attention = pending.reduce((set, event) => countChange(set, event), ids);
      this.#report({});
    } catch (error) {
      this.#pending = null;
      this.#report({ message: errorMessage(error) });
    }
  }

  #apply(event: LamisEvent): void {
    this.#pending?.push(event);
    if (this.#attention) {
      this.#attention = countChange(this.#attention, event);
      this.#report({});
    }
    this.#alertListeners.forEach((listener) => listener(event));
  }

  #report(change: Partial<Omit<LiveEventsStatus, 'attention'>>): void {
    this.#status = { ...this.#status, ...change, attention: this.#attention?.size ?? null };
    this.#statusListeners.forEach((listener) => listener(this.#status));
  }
}

export const liveEvents = new LiveEvents();
onIdentityChange(() => liveEvents.restart());

/** The stream's status (and the badge's count), drawn again as it changes; keeps the stream open meanwhile. */
export function useLiveEvents(): LiveEventsStatus {
  const [status, setStatus] = useState(liveEvents.status);
  useEffect(() => {
    const stopListening = liveEvents.onStatus(setStatus);
    const release = liveEvents.use();
    setStatus(liveEvents.status);
    return () => {
      stopListening();
      release();
    };
  }, []);
  return status;
}

/** Calls `listener` with each alert while the component is drawn, and `resync` when some may have been missed. */
export function useAlerts(listener: AlertListener, resync: () => void): void {
  useListener((current) => liveEvents.onAlert(current), listener);
  useListener((current) => liveEvents.onResync(current), resync);
}

/** Calls `listener` with each fleet feed entry that changed while the component is drawn, and `resync` after a drop. */
export function useFeed(listener: FeedListener, resync: () => void): void {
  useListener((current) => liveEvents.onFeed(current), listener);
  useListener((current) => liveEvents.onFeedResync(current), resync);
}

function useListener<L extends (value: never) => void>(subscribe: (listener: L) => () => void, listener: L): void {
  const [latest] = useState<{ current: L }>(() => ({ current: listener }));
  latest.current = listener;
  useEffect(() => {
    const unsubscribe = subscribe(((value: never) => latest.current(value)) as L);
    const release = liveEvents.use();
    return () => {
      unsubscribe();
      release();
    };
  }, []);
}
