// Marking a route deprecated: give it `config: { deprecation: { since, sunset?, link? } }`. Its
// responses then carry `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a `Link` to the
// migration notes, and the OpenAPI document marks the operation deprecated.
import type { FastifyInstance } from 'fastify';

export interface Deprecation {
  /** When the route became deprecated (ISO 8601). */
  since: string;
  /** When it stops answering (ISO 8601), if decided. */
  sunset?: string;
  /** Where the replacement is described. */
  link?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    deprecation?: Deprecation;
  }
}

export function deprecationHeaders(deprecation: Deprecation): Record<string, string> {
  const headers: Record<string, string> = {
    // RFC 9745: a Structured Field Date, i.e. `@` and seconds since the epoch.
    Deprecation: `@${Math.floor(Date.parse(deprecation.since) / 1000)}`,
  };
  if (deprecation.sunset) headers.Sunset = new Date(deprecation.sunset).toUTCString();
  if (deprecation.link) headers.Link = `<${deprecation.link}>; rel="deprecation"; type="text/html"`;
  return headers;
}

export function installDeprecation(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const deprecation = route.config?.deprecation;
    if (!deprecation) return;
    for (const [name, value] of [['since', deprecation.since], ['sunset', deprecation.sunset]] as const) {
      if (value !== undefined && Number.isNaN(Date.parse(value))) {
        throw new Error(`route ${route.url}: deprecation.${name} "${value}" is not a date`);
      }
    }
    route.schema = { ...route.schema, deprecated: true } as typeof route.schema;
  });
  app.addHook('onSend', async (request, reply) => {
    const deprecation = request.routeOptions.config.deprecation;
    if (deprecation) reply.headers(deprecationHeaders(deprecation));
  });
}
