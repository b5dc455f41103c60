// A stream as an AsyncAPI channel. What every stream shares is written here once: how to connect
// and what a refusal looks like, heartbeats, the close-code table, the `auth` and heartbeat
// messages and the Authorization header; each stream brings its summary, its own rules and frames.
import { Type } from 'typebox';
import { PLANS } from '../../../common/plans.ts';
import type { AsyncApiChannel, AsyncApiMessage } from '../http/asyncapi.ts';
import { AUTH_TIMEOUT_MS, type CloseCode } from './protocol.ts';
import { AuthMessageSchema, HeartbeatMessageSchema } from './schemas.ts';

export interface StreamChannelOptions {
  id: string;
  address: string;
  title: string;
  /** The first paragraph: what the stream carries. */
  summary: string;
  /** The stream's own paragraphs, between connecting and heartbeats: what follows `ready`, its limits. */
  sections: readonly string[];
  heartbeatSec: number;
  closeCodes: readonly CloseCode[];
  sends: Record<string, AsyncApiMessage>;
  /** The stream's own client messages; `auth` and `clientHeartbeat` come with every stream. */
  receives: Record<string, AsyncApiMessage>;
}

export function streamChannel(options: StreamChannelOptions): AsyncApiChannel {
  const description = [
    options.summary,
    '',
    '**Connecting.** Open a WebSocket to this path with `Authorization: Bearer <key>` on the upgrade request, or (browsers) send ' +
      `\`{"type":"auth","api_key":"<key>"}\` as the first message within ${AUTH_TIMEOUT_MS / 1000} s. Keys never go in the URL. ` +
      'A bad key, or a plan or cap refusal, on the upgrade request is answered with a problem document (401 `unauthorized`, ' +
      '403 `stream_not_in_plan`, 429 `stream_limit_reached`; 503 with `Retry-After`, `overloaded` for a development key while the ' +
      'instance is overloaded, `service_unavailable` while it shuts down or has nothing ready to serve the stream) and no upgrade; ' +
      'after an `auth` message, with a close code. ' +
      `Starter has no streams; Pro holds ${PLANS.pro.maxConcurrentStreams} at once per organisation, all streams together, across all instances; ` +
      "Enterprise and the instance's operator keys have no cap.",
    ...options.sections.flatMap((section) => ['', section]),
    '',
    `**Heartbeats.** Every ${options.heartbeatSec} s the server sends \`heartbeat\` and a WebSocket ping. A stream from which nothing ` +
      '(no message, no pong) was heard for two intervals is closed with 4408; send `{"type":"heartbeat"}` if your client cannot answer pings.',
    '',
    '**Close codes** (the reason text says more):',
    '',
    '| code | meaning | reconnect? |',
    '|---|---|---|',
    ...options.closeCodes.map((c) => `| ${c.code} | ${c.meaning} | ${c.reconnect} |`),
  ].join('\n');
  return {
    id: options.id,
    address: options.address,
    title: options.title,
    description,
    sends: options.sends,
    receives: {
      auth: { title: 'Authenticate', summary: 'The API key, for clients that cannot set headers', payload: AuthMessageSchema },
      ...options.receives,
      clientHeartbeat: { title: 'Client heartbeat', summary: 'Client keepalive', payload: HeartbeatMessageSchema },
    },
    headers: Type.Object({
      Authorization: Type.Optional(Type.String({ description: '`Bearer <key>`; without it, authenticate with an `auth` message' })),
    }),
    extensions: {
      'x-close-codes': options.closeCodes.map(({ code, name, meaning, reconnect }) => ({ code, name, meaning, reconnect })),
    },
  };
}
