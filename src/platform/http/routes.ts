// Every route the server registers, as it registers it: to tell "wrong method" (405) from "no such
// path" (404), and to check that the OpenAPI document lists exactly the routes that exist.
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { FastifyInstance } from 'fastify';

export interface RouteEntry {
  method: HTTPMethod;
  url: string;
  /** Left out of the API description: routes marked `hide` (the /docs assets), the HEAD twin fastify adds to every
   * GET (LAMIS declares no HEAD route of its own) and the CORS catch-all. */
  hidden: boolean;
}

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export class RouteInventory {
  readonly entries: RouteEntry[] = [];
  readonly #router = FindMyWay();

  /** Must run before any route is registered. */
  install(app: FastifyInstance): void {
    app.addHook('onRoute', (route) => {
      const hidden = Boolean(route.schema?.hide);
      for (const method of [route.method].flat() as HTTPMethod[]) {
        this.entries.push({ method, url: route.url, hidden: hidden || method === 'HEAD' || route.url === '*' });
        if (!this.#router.hasRoute(method, route.url)) this.#router.on(method, route.url, () => {});
      }
    });
  }

  /** The methods some route takes on this concrete path. */
  allowedMethods(path: string): HTTPMethod[] {
    return METHODS.filter((method) => this.#router.find(method, path) !== null);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    routeInventory: RouteInventory;
  }
}
