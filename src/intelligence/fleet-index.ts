// Every owner's fleet vessels by MMSI, in memory: the vessel rules ask "whose fleet is this vessel
// in?" for every AIS change, so the answer is one Map look-up. One MMSI may be in several fleets
// (two organisations watching the same ship); a vehicle is found again by owner and id when the
// fleet changes.
import type { FleetVessel } from '../fleet/index.ts';

/** One fleet's hold on a vessel: whose it is, and the vehicle that names it there. */
export interface FleetMember {
  owner: string;
  vehicle_id: string;
}

const vehicleKey = (owner: string, vehicleId: string) => `${owner}|${vehicleId}`;

export class FleetIndex {
  readonly #byMmsi = new Map<number, FleetMember[]>();
  readonly #mmsiOfVehicle = new Map<string, number>();

  get size(): number {
    return this.#byMmsi.size;
  }

  /** The fleets the vessel is in, or undefined: the hot path's one question. */
  membersOf(mmsi: number): readonly FleetMember[] | undefined {
    return this.#byMmsi.get(mmsi);
  }

  mmsis(): IterableIterator<number> {
    return this.#byMmsi.keys();
  }

  /** The MMSI the index holds for the vehicle, if any. */
  mmsiOf(owner: string, vehicleId: string): number | undefined {
    return this.#mmsiOfVehicle.get(vehicleKey(owner, vehicleId));
  }

  add(vessel: FleetVessel): void {
    this.remove(vessel.owner, vessel.vehicle_id);
    const member: FleetMember = { owner: vessel.owner, vehicle_id: vessel.vehicle_id };
    const members = this.#byMmsi.get(vessel.mmsi);
    if (members === undefined) this.#byMmsi.set(vessel.mmsi, [member]);
    else members.push(member);
    this.#mmsiOfVehicle.set(vehicleKey(vessel.owner, vessel.vehicle_id), vessel.mmsi);
  }

  /** Takes the vehicle out; answers the MMSI it had, if it was in. */
  remove(owner: string, vehicleId: string): number | undefined {
    const key = vehicleKey(owner, vehicleId);
    const mmsi = this.#mmsiOfVehicle.get(key);
    if (mmsi === undefined) return undefined;
    this.#mmsiOfVehicle.delete(key);
    const rest = this.#byMmsi.get(mmsi)!.filter((member) => member.owner !== owner || member.vehicle_id !== vehicleId);
    if (rest.length === 0) this.#byMmsi.delete(mmsi);
    else this.#byMmsi.set(mmsi, rest);
    return mmsi;
  }
}

/** The member of `owner`'s fleet among the vessel's fleets, if any. */
export function memberOf(members: readonly FleetMember[] | undefined, owner: string): FleetMember | undefined {
  if (members === undefined) return undefined;
  for (const member of members) if (member.owner === owner) return member;
  return undefined;
}
