// The map's connection to the AIS stream: the SDK's StreamClient over the browser's WebSocket, which
// cannot send headers, so the dashboard's key goes in the first (auth) message. This turns the
// client's events into one status the page shows, with the refusals explained in plain words.
import { StreamClient, type CloseInfo, type PositionUpdate, type ReadyInfo, type StaticUpdate, type SubscribedFilter, type SubscribeFilters } from '@lamis/sdk';
import { dataKey, forgetDataKey } from '../../api/data-key.ts';
import { errorMessage } from '../../api/errors.ts';

/** `not-in-plan`: the organisation's plan has no streams (Starter); the map shows REST snapshots instead. */
export type StreamPhase = 'connecting' | 'live' | 'reconnecting' | 'refused' | 'not-in-plan' | 'closed';

export interface StreamStatus {
  phase: StreamPhase;
  /** What the user should know (why it was refused, when it tries again). */
  message: string | null;
  /** Where the user can fix a refusal, e.g. the plan page. */
  fixAt: string | null;
  /** The organisation's plan, from the stream's `ready` frame (null for operator keys). */
  plan: string | null;
  /** Epoch ms of the next attempt while reconnecting. */
  retryAt: number | null;
}

export interface LiveStreamHandlers {
  position(update: PositionUpdate): void;
  static(update: StaticUpdate): void;
  status(status: StreamStatus): void;
  subscribed(filter: SubscribedFilter): void;
}

export const PLAN_PAGE = '/settings/plan';

/** Plain words for a close code the client will not recover from by itself. */
export function refusalMessage(close: Pick<CloseInfo, 'code' | 'reason'>): { message: string; fixAt: string | null } {
  switch (close.code) {
    case 4403:
      return {
        message: 'Live streaming comes with the Pro and Enterprise plans. On the Starter plan the map shows the vessels ' +
          'the vessel search finds in the area, refreshed every 30 seconds.',
        fixAt: PLAN_PAGE,
      };
    case 4401:
      return { message: `The stream refused the dashboard's API key (${close.reason || 'authentication failed'}).`, fixAt: '/settings/keys' };
    case 4400:
    case 1009:
      return { message: `The stream closed the connection: ${close.reason || `code ${close.code}`}.`, fixAt: null };
    default:
      return { message: `The stream closed (${close.reason || `code ${close.code}`}).`, fixAt: null };
  }
}

/** Why the client is waiting before it connects again, for the status line. */
export function reconnectReason(code: number, reason: string): string {
  switch (code) {
    case 4429:
      return 'Your organisation already holds every live stream its plan allows (Pro: 5 at once, in other tabs or programs).';
    case 4503:
      return 'The connection fell behind the updates.';
    case 4408:
      return 'The connection went quiet.';
    case 1001:
      return 'The server is restarting.';
    default:
      return reason ? `The connection dropped (${reason}).` : 'The connection dropped.';
  }
}

export class LiveStream {
  readonly #handlers: LiveStreamHandlers;
  #client: StreamClient | null = null;
  #ready: ReadyInfo | null = null;
  /** The filters to subscribe to, once the page has said which (nothing is subscribed before). */
  #filters: SubscribeFilters | undefined;
  #stopped = false;
  /** A key refused as revoked or expired is replaced once, as the REST calls do. */
  #renewedKey = false;

  constructor(handlers: LiveStreamHandlers) {
    this.#handlers = handlers;
  }

  get plan(): string | null {
    return this.#ready?.plan ?? null;
  }

  async start(): Promise<void> {
    this.#report({ phase: 'connecting', message: null, fixAt: null, retryAt: null });
    let secret: string;
    let source: 'created' | 'entered';
    try {
      ({ secret, source } = await dataKey());
    } catch (error) {
      this.#report({ phase: 'refused', message: errorMessage(error), fixAt: (error as { fixAt?: string | null }).fixAt ?? null, retryAt: null });
      return;
    }
    if (this.#stopped) return;
    const client = new StreamClient({ apiKey: secret, url: window.location.origin, WebSocket, auth: 'message' });
    this.#client = client;
    client.on('ready', (info) => {
      this.#ready = info;
      this.#report({ phase: 'live', message: null, fixAt: null, retryAt: null });
    });
    client.on('position', (update) => this.#handlers.position(update));
    client.on('static', (update) => this.#handlers.static(update));
    client.on('subscribed', (filter) => this.#handlers.subscribed(filter));
    client.on('reconnecting', ({ delayMs, code, reason }) => {
      this.#report({ phase: 'reconnecting', message: reconnectReason(code, reason), fixAt: null, retryAt: Date.now() + delayMs });
    });
    client.on('close', (close) => {
      if (close.reconnecting || this.#stopped || this.#client !== client) return;
      if (close.code === 4401 && source === 'created' && !this.#renewedKey) {
        // The key was revoked or rotated away elsewhere: make a new one and connect again, once.
        this.#renewedKey = true;
        forgetDataKey();
        void this.start();
        return;
      }
      const { message, fixAt } = refusalMessage(close);
      this.#report({ phase: close.code === 1000 ? 'closed' : close.code === 4403 ? 'not-in-plan' : 'refused', message, fixAt, retryAt: null });
    });
    // A refusal is reported by the close listener; a refused filter by the page's subscribe.
    if (this.#filters === undefined) await client.connect().catch(() => {});
    else await client.subscribe(this.#filters).catch(() => {});
  }

  /**
   * Replaces the subscription; resolves with the effective filter (null while the connection is
   * still being set up: the filters go out once it is), rejects when the server refuses them.
   */
  subscribe(filters: SubscribeFilters): Promise<SubscribedFilter | null> {
    this.#filters = filters;
    return this.#client ? this.#client.subscribe(filters) : Promise.resolve(null);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const client = this.#client;
    this.#client = null;
    await client?.close();
  }

  #report(status: Omit<StreamStatus, 'plan'>): void {
    if (this.#stopped) return;
    this.#handlers.status({ ...status, plan: this.plan });
  }
}
