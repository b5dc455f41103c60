// The vessel picture for watchers outside an HTTP request (the intelligence engine): the live
// vessel state, and whether a position lies in a port's approach area. The service creates one
// before its features start; the maritime feature attaches its store and port index when it
// starts, as aviation does with LandingWatch.
import { createPointGrid, type PointGrid } from '../platform/geo/point-grid.ts';
import type { LatLon } from '../platform/geo/great-circle.ts';
import { APPROACH_RADIUS_NM, type Port, type PortIndex } from './ports/model.ts';
import type { BBox, Vessel, VesselStore } from './vessels/store.ts';

export class VesselWatch {
  #store: VesselStore | null = null;
  #index: PortIndex | null = null;
  #ports: PointGrid<Port> | null = null;
  #widestAreaNm = Math.max(...Object.values(APPROACH_RADIUS_NM));

  attach(store: VesselStore, ports: PortIndex): void {
    this.#store = store;
    this.#index = ports;
    this.#ports = createPointGrid(ports.ports, (port) => port, (port) => port.id);
    this.#widestAreaNm = ports.ports.reduce((widest, port) => Math.max(widest, port.approach_area.radius_nm), this.#widestAreaNm);
  }

  /** Whether the maritime feature has started (a service built without it has no vessels). */
  get attached(): boolean {
    return this.#store !== null;
  }

  vessel(mmsi: number): Vessel | undefined {
    return this.#store?.get(mmsi);
  }

  /** Every vessel LAMIS knows, with or without a position. */
  *vessels(): Generator<Vessel> {
    if (this.#store) yield* this.#store.all();
  }

  /** Live vessels whose position lies in the box. */
  *inBox(box: BBox): Generator<Vessel> {
    if (this.#store) yield* this.#store.inBox(box);
  }

  port(id: string): Port | null {
    return this.#index?.get(id) ?? null;
  }

  /** The port whose approach area holds the position (the nearest where areas overlap), or null. */
  portAreaAt(position: LatLon): Port | null {
    const hits = this.#ports?.nearest(position, this.#widestAreaNm) ?? [];
    return hits.find((hit) => hit.distance_nm <= hit.item.approach_area.radius_nm)?.item ?? null;
  }
}
