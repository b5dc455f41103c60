// The AsyncAPI 3 document of the service's WebSocket streams, served at /v3/asyncapi.json. Features
// describe their channels with the same TypeBox schemas that validate and shape their frames; this
// module only lays them out as AsyncAPI. The document describes LAMIS itself: `send` operations are
// frames LAMIS sends, `receive` operations messages it takes from clients.
import type { FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import packageJson from '../../../package.json' with { type: 'json' };
import { DISCLAIMER } from '../disclaimer.ts';
import type { App } from './app.ts';

export const ASYNCAPI_PATH = '/v3/asyncapi.json';

export interface AsyncApiMessage {
  title: string;
  summary: string;
  payload: TSchema;
}

export interface AsyncApiChannel {
  /** The channel's key in the document. */
  id: string;
  /** The path clients open. */
  address: string;
  title: string;
  /** Markdown. */
  description: string;
  /** Frames LAMIS sends on the channel, by message name. */
  sends: Record<string, AsyncApiMessage>;
  /** Messages LAMIS takes from clients, by message name. */
  receives: Record<string, AsyncApiMessage>;
  /** The WebSocket channel binding: headers the opening request may carry, as a JSON Schema object. */
  headers?: TSchema;
  /** Specification extensions on the channel (`x-…`), e.g. its close codes. */
  extensions?: Record<`x-${string}`, unknown>;
}

/** A schema as plain JSON (TypeBox keeps its own bookkeeping out of JSON). */
const plain = (schema: TSchema): unknown => JSON.parse(JSON.stringify(schema));

const capitalised = (name: string) => name[0]!.toUpperCase() + name.slice(1);

export function asyncApiDocument(options: { host: string; secure: boolean; channels: readonly AsyncApiChannel[] }): Record<string, unknown> {
  const channels: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const channel of options.channels) {
    const channelMessages: Record<string, unknown> = {};
    const operationsOf = (action: 'send' | 'receive', entries: Record<string, AsyncApiMessage>) => {
      for (const [name, message] of Object.entries(entries)) {
        const key = `${channel.id}${capitalised(name)}`;
        schemas[key] = plain(message.payload);
        messages[key] = {
          name,
          title: message.title,
          summary: message.summary,
          contentType: 'application/json',
          payload: { $ref: `#/components/schemas/${key}` },
        };
        channelMessages[name] = { $ref: `#/components/messages/${key}` };
      }
      const names = Object.keys(entries);
      if (names.length === 0) return;
      operations[`${channel.id}${capitalised(action)}`] = {
        action,
        title: action === 'send' ? `Frames LAMIS sends on ${channel.address}` : `Messages LAMIS takes on ${channel.address}`,
        channel: { $ref: `#/channels/${channel.id}` },
        messages: names.map((name) => ({ $ref: `#/channels/${channel.id}/messages/${name}` })),
      };
    };
    operationsOf('send', channel.sends);
    operationsOf('receive', channel.receives);
    channels[channel.id] = {
      address: channel.address,
      title: channel.title,
      description: channel.description,
      servers: [{ $ref: '#/servers/lamis' }],
      messages: channelMessages,
      ...(channel.headers ? { bindings: { ws: { method: 'GET', headers: plain(channel.headers), bindingVersion: '0.1.0' } } } : {}),
      ...channel.extensions,
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'LAMIS streams',
      version: packageJson.version,
      description: `The WebSocket streams of the Landing and Maritime Intelligence Service. The REST API is described at \`/v3/openapi.json\`.\n\n${DISCLAIMER}`,
    },
    defaultContentType: 'application/json',
    servers: {
      lamis: {
        host: options.host,
        protocol: options.secure ? 'wss' : 'ws',
        description: 'This LAMIS instance',
        security: [{ $ref: '#/components/securitySchemes/apiKey' }],
      },
    },
    channels,
    operations,
    components: {
      schemas,
      messages,
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key as `Authorization: Bearer <key>` on the opening request; channels say where else they take one.',
        },
      },
    },
  };
}

/** Where clients reach this instance: the configured public address, else the address asked for. */
function reachedAt(request: FastifyRequest, publicUrl: string | undefined): { host: string; secure: boolean } {
  if (publicUrl) {
    const url = new URL(publicUrl);
    return { host: url.host, secure: url.protocol === 'https:' };
  }
  return { host: request.host, secure: request.protocol === 'https' };
}

/** The channels of each app's document, added by the streams it serves. */
const documented = new WeakMap<App, AsyncApiChannel[]>();

/** Adds the channels to the app's AsyncAPI document, serving the document from the first call on. */
export function registerAsyncApi(app: App, options: { publicUrl: string | undefined; channels: readonly AsyncApiChannel[] }): void {
  const known = documented.get(app);
  if (known) {
    known.push(...options.channels);
    return;
  }
  const channels = [...options.channels];
  documented.set(app, channels);
  app.get(ASYNCAPI_PATH, {
    config: { public: true },
    schema: {
      summary: 'The AsyncAPI 3 document of the WebSocket streams',
      description: 'Channels, the messages in both directions with their JSON schemas, authentication and close codes.',
      tags: ['Operations'],
      response: { 200: { type: 'object', additionalProperties: true } },
    },
  }, async (request) => asyncApiDocument({ ...reachedAt(request, options.publicUrl), channels }));
}
