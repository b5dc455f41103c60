// REST for the fleet feed: one entry per vehicle of the caller's fleet with what it needs now, read
// from what the intelligence engine keeps in memory. Mounted like the fleet's own routes: for API
// keys under /v3/fleet, and for signed-in members (any role) under the organisation's path.
import { Type } from 'typebox';
import { VEHICLE_TYPES } from '../../common/vehicle-types.ts';
import { FEED_FRAME_INTERVAL_SEC, FleetFeedEntrySchema } from '../events/index.ts';
import { withNote, type FleetMount, type VehicleListKey } from '../fleet/index.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { VESSEL_INTERVAL_MS, type FleetFeed } from './fleet-feed.ts';

const isListKey = (key: unknown): key is VehicleListKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

export function mountFleetFeedRoutes(app: App, feed: FleetFeed, mount: FleetMount): void {
  const read = mount.admit('view', 'see the fleet feed');
  app.get(`${mount.prefix}/feed`, {
    ...read.options,
    schema: {
      summary: 'What each vehicle of your fleet needs now',
      description: withNote(
        'One entry per vehicle, in the order of the vehicle list (creation time, ties by id), cursor-paginated; `vehicle_type` narrows it. ' +
        'Aircraft and helicopters: the next watched planned arrival and the landing answer at its ETA (destination status, safety score, ' +
        'runway and approach, the wind against the aircraft\'s limits, the slot). Vessels: the last position and its age, the destination ' +
        'as reported and the port it names, the predicted ETA, the next tidal window for the draught and the weather hold there. Each with ' +
        'its open events; what LAMIS cannot answer is null and listed in `missing` with the reason. The entries are kept current as their ' +
        `inputs change (a vessel's at most every ${VESSEL_INTERVAL_MS / 1000} s); \`updated_at\` is when an entry last changed. Changed entries ` +
        `also come as \`feed\` frames on /v3/stream/events (at most one per vehicle every ${FEED_FRAME_INTERVAL_SEC} s).`,
        read.note,
      ),
      tags: ['Fleet'],
      params: Type.Object(mount.params),
      querystring: Type.Object({ vehicle_type: Type.Optional(Type.Enum([...VEHICLE_TYPES])), ...PageQuery }),
      response: { 200: Page(FleetFeedEntrySchema) },
    },
  }, async (request) => {
    const { vehicle_type, limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isListKey);
    const page = await feed.page(mount.ownerOf(request), { vehicle_type, limit: limit!, after });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });
}
