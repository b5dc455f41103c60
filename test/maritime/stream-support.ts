// Helpers for the AIS stream tests: a WebSocket client that keeps every frame it receives, NMEA
// uploads to move vessels, and metrics.
import assert from 'node:assert/strict';
import WebSocket, { type ClientOptions } from 'ws';
import { encodeAisSentences } from '../../src/maritime/ais/index.ts';
import type { AisRaw } from '../../src/maritime/ais/index.ts';
import { waitFor } from '../../src/maritime/feeds/testing.ts';
import { STREAM_PATH } from '../../src/maritime/stream/protocol.ts';
import { AUTH } from '../support/server.ts';

export interface Frame {
  event: string;
  data: any;
  /** When it arrived (ms). */
  at: number;
}

export interface Closed {
  code: number;
  reason: string;
}

export function streamUrl(serverUrl: string): string {
  return `${serverUrl.replace(/^http/, 'ws')}${STREAM_PATH}`;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A stream client recording every frame, the way an application would see them. */
export class TestStream {
  readonly ws: WebSocket;
  readonly frames: Frame[] = [];
  readonly closed: Promise<Closed>;
  #read = new Map<string, number>();

  constructor(serverUrl: string, options: ClientOptions = {}) {
    this.ws = new WebSocket(streamUrl(serverUrl), options);
    this.ws.on('message', (data) => {
      const { event, data: payload } = JSON.parse(data.toString());
      this.frames.push({ event, data: payload, at: Date.now() });
    });
    this.ws.on('error', () => {});
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Opens with the operator key (or the given headers) and waits for `ready` (`ms`: for as long as a process takes to start). */
  static async ready(serverUrl: string, headers: Record<string, string> = AUTH, options: ClientOptions = {}, ms?: number): Promise<TestStream> {
    const stream = new TestStream(serverUrl, { headers, ...options });
    await stream.next('ready', ms);
    return stream;
  }

  /** Opens with the headers: the stream once ready, or the status of the refused upgrade. */
  static attempt(serverUrl: string, headers: Record<string, string>): Promise<TestStream | number> {
    const stream = new TestStream(serverUrl, { headers });
    return new Promise((resolve) => {
      stream.ws.once('unexpected-response', (_request, response) => {
        response.resume();
        resolve(response.statusCode!);
      });
      void stream.next('ready').then(() => resolve(stream), () => resolve(0));
    });
  }

  /** Opens, subscribes and waits for `subscribed`. */
  static async subscribed(serverUrl: string, subscription: Record<string, unknown>, headers: Record<string, string> = AUTH): Promise<TestStream> {
    const stream = await TestStream.ready(serverUrl, headers);
    stream.send({ type: 'subscribe', ...subscription });
    await stream.next('subscribed');
    return stream;
  }

  send(message: unknown): void {
    this.ws.send(JSON.stringify(message));
  }

  of(event: string): Frame[] {
    return this.frames.filter((frame) => frame.event === event);
  }

  /** The next frame of this event not returned before. */
  async next(event: string, ms = 5000): Promise<Frame> {
    const index = this.#read.get(event) ?? 0;
    await waitFor(() => this.of(event).length > index, `a "${event}" frame (after ${index})`, ms);
    this.#read.set(event, index + 1);
    return this.of(event)[index]!;
  }

  /** MMSIs of the position frames received, sorted and without repeats. */
  positionMmsis(): number[] {
    return [...new Set(this.of('position').map((frame) => frame.data.mmsi as number))].sort((a, b) => a - b);
  }

  close(): Promise<Closed> {
    this.ws.close(1000);
    return this.closed;
  }
}

/** The answer to an upgrade the server refused: status and problem document. */
export function refusedUpgrade(serverUrl: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(streamUrl(serverUrl), { headers });
    ws.on('open', () => reject(new Error('the upgrade was accepted')));
    ws.on('error', () => {});
    ws.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: JSON.parse(body) }));
    });
  });
}

export async function upload(serverUrl: string, messages: AisRaw[]): Promise<void> {
  const lines = messages.flatMap((message, i) => encodeAisSentences(message, { sequenceId: i % 10, channel: 'A' }));
  const response = await fetch(`${serverUrl}/v3/maritime/ais/nmea`, {
    method: 'POST',
    headers: { ...AUTH, 'content-type': 'text/plain' },
    body: lines.join('\r\n'),
  });
  const result = (await response.json()) as { messages: number };
  assert.equal(response.status, 200, JSON.stringify(result));
  assert.equal(result.messages, messages.length, JSON.stringify(result));
}

/** A metric's value from /metrics (0 when absent). */
export async function metric(serverUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${serverUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : 0;
}
