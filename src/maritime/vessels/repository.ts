// Vessel state and tracks in storage (tables in vessels.table.ts). Writes go in chunks sized so no
// statement passes either back end's limit on bound parameters; search runs in memory, so the
// only reads are a vessel's track and the full state at start.
import type { Database } from '../../platform/db/database.ts';
import type { Dimensions } from '../ais/index.ts';
import type { MmsiKind, VesselCategory } from './reference/index.ts';
import type { FeedSource, Vessel, VesselPosition } from './store.ts';
import type { VesselPositionsTable, VesselsTable } from './vessels.table.ts';

/** One stored point of a vessel's track. */
export interface TrackPoint {
  mmsi: number;
  /** When the position was received, ISO 8601 UTC (the position's `timestamp`). */
  time: string;
  lat: number;
  lon: number;
  sog: number | null;
  cog: number | null;
  heading: number | null;
  nav_status: number | null;
  source: FeedSource;
}

/** What `vessels.data` holds: the Vessel less its columns. */
interface VesselData {
  mmsi_kind: MmsiKind;
  flag_country: string | null;
  ais_class: 'A' | 'B' | null;
  callsign: string | null;
  ship_type: number | null;
  dimensions: Dimensions | null;
  destination: string | null;
  eta: string | null;
  draught: number | null;
  position: StoredPosition | null;
  static_updated_at: string | null;
  sources: FeedSource[];
}

/** Rows written before `rot_direction` existed lack it. */
type StoredPosition = Omit<VesselPosition, 'rot_direction'> & Partial<Pick<VesselPosition, 'rot_direction'>>;

/**
 * Bound parameters per statement. SQLite (3.32 and later, as bundled with Node) allows 32,766 and
 * PostgreSQL 65,535; this stays well under both.
 */
export const MAX_PARAMETERS = 10_000;
const VESSEL_COLUMNS = 9;
const POSITION_COLUMNS = 9;
/** Rows per DELETE when pruning: each statement, and the lock it takes, stays short. */
export const PRUNE_CHUNK = 5_000;

export function trackPointOf(mmsi: number, position: VesselPosition, source: FeedSource): TrackPoint {
  return {
    mmsi,
    time: position.timestamp,
    lat: position.lat,
    lon: position.lon,
    sog: position.sog,
    cog: position.cog,
    heading: position.heading,
    nav_status: position.nav_status,
    source,
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function vesselRow(v: Vessel): VesselsTable {
  const data: VesselData = {
    mmsi_kind: v.mmsi_kind,
    flag_country: v.flag?.country ?? null,
    ais_class: v.ais_class,
    callsign: v.callsign,
    ship_type: v.ship_type,
    dimensions: v.dimensions,
    destination: v.destination,
    eta: v.eta,
    draught: v.draught,
    position: v.position,
    static_updated_at: v.static_updated_at,
    sources: v.sources,
  };
  return {
    mmsi: v.mmsi,
    imo: v.imo,
    name: v.name,
    category: v.category,
    flag: v.flag?.alpha2 ?? null,
    source: v.source,
    position_time: v.position?.timestamp ?? null,
    last_update: v.last_update,
    data: JSON.stringify(data),
  };
}

/**
 * Positions saved before `rot_direction` existed held ROT ±127 ("turning fast, no turn indicator")
 * as about ±720°/min; a turn indicator's fastest rate, ROT ±126, is 708.7°/min.
 */
const FASTEST_INDICATED_ROT = 710;

function positionOf(stored: StoredPosition): VesselPosition {
  if (stored.rot_direction !== undefined) return stored as VesselPosition;
  const { rot } = stored;
  return {
    ...stored,
    rot: rot !== null && Math.abs(rot) > FASTEST_INDICATED_ROT ? null : rot,
    rot_direction: rot === null || rot === 0 ? null : rot > 0 ? 'starboard' : 'port',
  };
}

/** The Vessel a row holds, with its keys in the order VesselStore gives them. */
function vesselOf(row: VesselsTable): Vessel {
  const data = JSON.parse(row.data) as VesselData;
  return {
    mmsi: row.mmsi,
    mmsi_kind: data.mmsi_kind,
    flag: row.flag === null ? null : { alpha2: row.flag, country: data.flag_country ?? '' },
    ais_class: data.ais_class,
    name: row.name,
    callsign: data.callsign,
    imo: row.imo,
    ship_type: data.ship_type,
    category: row.category as VesselCategory,
    dimensions: data.dimensions,
    destination: data.destination,
    eta: data.eta,
    draught: data.draught,
    position: data.position && positionOf(data.position),
    source: row.source as FeedSource,
    sources: data.sources,
    last_update: row.last_update,
    static_updated_at: data.static_updated_at,
  };
}

function positionRow(p: TrackPoint): VesselPositionsTable {
  return {
    mmsi: p.mmsi,
    time: Date.parse(p.time),
    lat: p.lat,
    lon: p.lon,
    sog: p.sog,
    cog: p.cog,
    heading: p.heading,
    nav_status: p.nav_status,
    source: p.source,
  };
}

function trackPointOfRow(row: VesselPositionsTable): TrackPoint {
  return {
    mmsi: row.mmsi,
    time: new Date(row.time).toISOString(),
    lat: row.lat,
    lon: row.lon,
    sog: row.sog,
    cog: row.cog,
    heading: row.heading,
    nav_status: row.nav_status,
    source: row.source as FeedSource,
  };
}

export class VesselRepository {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /**
   * Inserts or replaces each vessel's row, all in one transaction. The vessels are read before
   * the first await, so later changes to the same objects are not half-written. When an MMSI
   * appears twice the last one wins.
   */
  async saveVessels(vessels: readonly Vessel[]): Promise<void> {
    if (vessels.length === 0) return;
    // PostgreSQL refuses an upsert that touches one row twice: keep the last of each MMSI. Rows go
    // in MMSI order, so two instances saving the same vessels lock them in the same order.
    const rows = [...new Map(vessels.map((v) => [v.mmsi, vesselRow(v)])).values()].sort((a, b) => a.mmsi - b.mmsi);
    await this.#database.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / VESSEL_COLUMNS))) {
        await trx
          .insertInto('vessels')
          .values(chunk)
          .onConflict((oc) =>
            oc.column('mmsi').doUpdateSet((eb) => ({
              imo: eb.ref('excluded.imo'),
              name: eb.ref('excluded.name'),
              category: eb.ref('excluded.category'),
              flag: eb.ref('excluded.flag'),
              source: eb.ref('excluded.source'),
              position_time: eb.ref('excluded.position_time'),
              last_update: eb.ref('excluded.last_update'),
              data: eb.ref('excluded.data'),
            })))
          .execute();
      }
    });
  }

  /** Adds track points in one transaction; a point already stored (same MMSI and time) is skipped. */
  async appendPositions(points: readonly TrackPoint[]): Promise<void> {
    if (points.length === 0) return;
    const rows = points.map(positionRow);
    await this.#database.db.transaction().execute(async (trx) => {
      for (const chunk of chunks(rows, Math.floor(MAX_PARAMETERS / POSITION_COLUMNS))) {
        await trx
          .insertInto('vessel_positions')
          .values(chunk)
          .onConflict((oc) => oc.columns(['mmsi', 'time']).doNothing())
          .execute();
      }
    });
  }

  /** A vessel's points with fromMs <= time <= toMs, oldest first, at most `limit` of them. */
  async track(mmsi: number, fromMs: number, toMs: number, limit: number): Promise<TrackPoint[]> {
    const rows = await this.#database.db
      .selectFrom('vessel_positions')
      .selectAll()
      .where('mmsi', '=', mmsi)
      .where('time', '>=', fromMs)
      .where('time', '<=', toMs)
      .orderBy('time')
      .limit(limit)
      .execute();
    return rows.map(trackPointOfRow);
  }

  /** Every stored vessel, as VesselStore held it when it was saved (for VesselStore.restore). */
  async loadVessels(): Promise<Vessel[]> {
    const rows = await this.#database.db.selectFrom('vessels').selectAll().orderBy('mmsi').execute();
    return rows.map(vesselOf);
  }

  /**
   * Deletes the track points older than beforeMs, about PRUNE_CHUNK at a time, each chunk its own
   * short statement; returns how many were deleted.
   */
  async pruneTrack(beforeMs: number): Promise<number> {
    const db = this.#database.db;
    let deleted = 0;
    for (;;) {
      // The time of the PRUNE_CHUNK-th oldest point: this round deletes up to and including it
      // (a few more when several points share that time). None: what is left is one last chunk.
      const nth = await db
        .selectFrom('vessel_positions')
        .select('time')
        .where('time', '<', beforeMs)
        .orderBy('time')
        .limit(1)
        .offset(PRUNE_CHUNK - 1)
        .executeTakeFirst();
      const upTo = nth ? nth.time + 1 : beforeMs;
      const result = await db.deleteFrom('vessel_positions').where('time', '<', upTo).executeTakeFirst();
      deleted += Number(result.numDeletedRows);
      if (!nth) return deleted;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
