// The fleet changes topic: a vehicle, a planned arrival or notification settings of an owner changed
// (through either mount), so whatever the intelligence engine keeps about that fleet may want to
// look again. It names the owner and the vehicle, never the vehicle's fields (registrations stay
// out of the bus as they stay out of the logs).
import { topic, type Bus } from '../platform/bus/index.ts';
import type { App } from '../platform/http/app.ts';
import type { FleetMount } from './vehicles.routes.ts';

export interface FleetChange {
  /** The organisation's id, or the id of an API key outside any. */
  owner: string;
  /** The vehicle changed (or whose arrivals or settings did); null for a new vehicle or the organisation-wide settings. */
  vehicle_id: string | null;
}

export const fleetChanges = topic<FleetChange>('fleet.changes');

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Announces every change a fleet route made, before its answer goes out: a caller that reads what
 * depends on the fleet right after finds the change already under way.
 */
export function announceFleetChanges(app: App, bus: Bus, mounts: readonly FleetMount[]): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!CHANGES.has(request.method) || reply.statusCode >= 300) return payload;
    const route = request.routeOptions.url ?? '';
    const mount = mounts.find((candidate) => route.startsWith(`${candidate.prefix}/`));
    if (mount === undefined) return payload;
    const vehicleId = (request.params as { id?: string }).id ?? null;
    await bus.publish(fleetChanges, { owner: mount.ownerOf(request), vehicle_id: vehicleId });
    return payload;
  });
}
