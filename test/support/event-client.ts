// A client of /v3/stream/events for tests: it keeps every frame, and waits for frames by kind.
import WebSocket from 'ws';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import type { OrganisationKey } from './organisations.ts';

export interface Frame {
  event: string;
  data: any;
}

/** A client of /v3/stream/events keeping every frame. */
export class EventClient {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<number>;
  /** The status of a refused upgrade. */
  readonly refused: Promise<number>;

  constructor(serverUrl: string, headers: Record<string, string>, query = '') {
    this.ws = new WebSocket(`${serverUrl.replace(/^http/, 'ws')}/v3/stream/events${query}`, { headers });
    this.ws.on('message', (data) => this.frames.push(JSON.parse(data.toString())));
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => this.ws.on('close', (code) => resolve(code)));
    this.refused = new Promise((resolve) => this.ws.once('unexpected-response', (_request, response) => {
      response.resume();
      resolve(response.statusCode!);
    }));
  }

  static async ready(serverUrl: string, key: OrganisationKey, query = ''): Promise<EventClient> {
    const client = new EventClient(serverUrl, key.headers, query);
    await client.until('ready');
    return client;
  }

  of(event: string): Frame[] {
    return this.frames.filter((frame) => frame.event === event);
  }

  alerts(): string[] {
    return this.of('alert').map((frame) => `${frame.data.id} ${frame.data.state}`);
  }

  async until(event: string, count = 1, timeoutMs = 5000): Promise<void> {
    await waitFor(() => this.of(event).length >= count, `${count} ${event} frame(s)`, timeoutMs);
  }

  async close(): Promise<void> {
    this.ws.close();
    await this.closed;
  }
}
