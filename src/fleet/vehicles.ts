// Fleet profiles: each organisation's aircraft, helicopters and vessels, and its notification
// settings. Every query is scoped to the owner (an organisation, or an API key outside any): a
// vehicle of another owner is indistinguishable from one that does not exist.
//
// Which fields each vehicle type takes is tabled in README.md beside this file. In short: aircraft
// and helicopters need a registration and an ICAO type, vessels an MMSI; fields of the other kind
// are refused by name. An unknown type needs both overrides because the conservative defaults
// (2,500 m of runway) would otherwise keep a light aircraft off every field it really uses. The
// home base is checked for form only: the airport reference data leaves out fields a fleet may
// well be based at.
//
// Registrations are compared as upper case without spaces or hyphens, so G-EUPT, GEUPT and
// "g eupt" are one registration; no two registrations differ only by their hyphen. They are shown
// upper case without spaces, hyphens as written.
import { createHash } from 'node:crypto';
import type { Transaction } from 'kysely';
import { VEHICLE_TYPES, type VehicleType } from '../../common/vehicle-types.ts';
import { aircraftType } from '../aviation/index.ts';
import { classifyMmsi, isValidImo, isValidMmsi } from '../maritime/index.ts';
import { blindIndex } from '../platform/crypto/blind-index.ts';
import type { Envelope } from '../platform/crypto/envelope.ts';
import type { Database, Tables } from '../platform/db/database.ts';
import { HeldValues } from '../platform/held-values.ts';
import { newId } from '../platform/ids.ts';
import type { FleetVehicleRow } from './vehicles.table.ts';
import { validateThresholds, type Thresholds } from './thresholds.ts';
import { Issues } from './validation.ts';

export const MAX_REGIONS = 50;

export interface FleetVehicle {
  id: string;
  vehicle_type: VehicleType;
  registration: string | null;
  icao_type: string | null;
  home_base_icao: string | null;
  operational_regions: string[];
  mmsi: number | null;
  imo: number | null;
  crosswind_limit_kt: number | null;
  min_runway_m: number | null;
  created_at: string;
  updated_at: string;
}

type VehicleFields = Omit<FleetVehicle, 'id' | 'created_at' | 'updated_at'>;

/** A new vehicle: absent and null both mean "none". */
export type VehicleInput = { vehicle_type: VehicleType } & { [K in Exclude<keyof VehicleFields, 'vehicle_type'>]?: VehicleFields[K] | null };
/** Fields to change; null clears a field. */
export type VehiclePatch = Partial<VehicleInput>;

/** Sort key of the list: creation time, then id. */
export type ListKey = readonly [created_at: string, id: string];

export type CreateResult =
  | { status: 'created'; vehicle: FleetVehicle }
  /** The Idempotency-Key made this vehicle before, from the same fields. */
  | { status: 'existing'; vehicle: FleetVehicle }
  /** The Idempotency-Key made another vehicle (or the same with other fields). */
  | { status: 'key_reused'; vehicle: FleetVehicle }
  | { status: 'duplicate_registration' };

export type UpdateResult = { status: 'updated'; vehicle: FleetVehicle } | { status: 'not_found' } | { status: 'duplicate_registration' };

/** A vessel of some owner's fleet, as the vessel rules index them. */
export interface FleetVessel {
  owner: string;
  vehicle_id: string;
  mmsi: number;
}

export interface NotificationSettings {
  /** null: the organisation-wide settings. */
  vehicle_id: string | null;
  thresholds: Thresholds;
  /** What applies: the organisation's thresholds, overridden key by key by the vehicle's own. */
  effective: Thresholds;
  /** null: never set. */
  updated_at: string | null;
}

/** A vehicle with the notification settings that apply to it: what a rule about it needs. */
export interface LandingContext {
  vehicle: FleetVehicle;
  /** The vehicle's own thresholds and the effective ones (the organisation's, overridden key by key). */
  settings: Pick<NotificationSettings, 'thresholds' | 'effective'>;
}

/** Rows read at once by the batch look-ups, within the back ends' parameter limits. */
const LOOKUP_CHUNK = 500;
/** Registrations held per owner before they are all read again (any text can be asked for). */
const HELD_REGISTRATIONS = 10_000;

/** One text for every writing of a registration: upper case, no spaces, no hyphens. */
export function normaliseRegistration(registration: string): string {
  return registration.toUpperCase().replace(/[\s-]/g, '');
}

/** The blind indexer the store looks registrations up with. */
export function registrationIndex(master: Buffer): (registration: string) => string {
  return blindIndex(master, 'fleet.registration', normaliseRegistration);
}

const sealContext = (owner: string, id: string) => `fleet.registration:${owner}:${id}`;

function validate(input: VehicleInput): VehicleFields {
  const issues = new Issues();
  const type = input.vehicle_type;
  if (!VEHICLE_TYPES.includes(type)) {
    issues.add('vehicle_type', `must be one of ${VEHICLE_TYPES.join(', ')}`);
    issues.check();
  }
  const vessel = type === 'vessel';
  const notTaken = (field: keyof VehicleInput, value: unknown) => {
    if (value !== undefined && value !== null) issues.add(field, vessel ? 'is not taken for vessels' : 'is only taken for vessels');
  };

  const registration = input.registration === undefined || input.registration === null ? null : input.registration.replace(/\s+/g, '').toUpperCase();
  if (registration === null) {
    if (!vessel) issues.add('registration', `is required for ${type === 'aircraft' ? 'an aircraft' : 'a helicopter'}`);
  } else if (!/^[A-Z0-9][A-Z0-9-]{0,14}[A-Z0-9]$/.test(registration)) {
    // The value is not repeated: registrations stay out of messages that may reach logs.
    issues.add('registration', 'must be 2 to 16 letters, digits and inner hyphens, e.g. G-EUPT');
  }

  const regions = [...new Set((input.operational_regions ?? []).map((code) => code.trim().toUpperCase()))];
  if (regions.length > MAX_REGIONS) issues.add('operational_regions', `must list at most ${MAX_REGIONS} codes`);
  (input.operational_regions ?? []).forEach((code, index) => {
    if (!/^([A-Z]{1,2}|[A-Z]{4})$/i.test(code.trim())) {
      issues.add(`operational_regions/${index}`, 'must be a FIR (4 letters, e.g. EGTT) or an ICAO region (1 or 2 letters, e.g. K, EG)');
    }
  });

  const fields: VehicleFields = {
    vehicle_type: type,
    registration,
    icao_type: input.icao_type?.trim().toUpperCase() ?? null,
    home_base_icao: input.home_base_icao?.trim().toUpperCase() ?? null,
    operational_regions: regions,
    mmsi: input.mmsi ?? null,
    imo: input.imo ?? null,
    crosswind_limit_kt: input.crosswind_limit_kt ?? null,
    min_runway_m: input.min_runway_m ?? null,
  };

  if (vessel) {
    for (const field of ['icao_type', 'home_base_icao', 'crosswind_limit_kt', 'min_runway_m'] as const) notTaken(field, fields[field]);
    const kind = fields.mmsi === null ? null : classifyMmsi(fields.mmsi).kind;
    if (fields.mmsi === null) issues.add('mmsi', 'is required for a vessel');
    else if (!isValidMmsi(fields.mmsi) || (kind !== 'ship' && kind !== 'auxiliary_craft')) {
      issues.add('mmsi', 'must be the 9-digit MMSI of a ship station (MID first, e.g. 235012345) or of a craft associated with one (98…)');
    }
    if (fields.imo !== null && !isValidImo(fields.imo)) issues.add('imo', 'must be a 7-digit IMO number with a valid check digit, e.g. 9074729');
  } else {
    notTaken('mmsi', fields.mmsi);
    notTaken('imo', fields.imo);
    const { crosswind_limit_kt: crosswind, min_runway_m: runway } = fields;
    if (crosswind !== null && !(crosswind >= 1 && crosswind <= 60)) issues.add('crosswind_limit_kt', 'must be a number of knots from 1 to 60');
    if (runway !== null && !(Number.isInteger(runway) && runway >= 1 && runway <= 6000)) issues.add('min_runway_m', 'must be a whole number of metres from 1 to 6000');
    if (fields.icao_type === null) {
      issues.add('icao_type', `is required for ${type === 'aircraft' ? 'an aircraft' : 'a helicopter'}`);
    } else if (!/^[A-Z][A-Z0-9]{1,3}$/.test(fields.icao_type)) {
      issues.add('icao_type', 'must be an ICAO type designator: 2 to 4 letters or digits, the first a letter, e.g. A320');
    } else {
      const known = aircraftType(fields.icao_type);
      if (known && known.vehicle_category !== type) {
        issues.add('icao_type', `${known.designator} is a type of ${known.vehicle_category}, not of ${type}`);
      } else if (!known && (crosswind === null || runway === null)) {
        issues.add('icao_type', `${fields.icao_type} is not in the aircraft type table: give crosswind_limit_kt and min_runway_m for it`);
      }
    }
    if (fields.home_base_icao !== null && !/^[A-Z0-9]{3,4}$/.test(fields.home_base_icao)) {
      issues.add('home_base_icao', 'must be an airport code of 3 or 4 letters or digits, e.g. EGLL');
    }
  }
  issues.check();
  return fields;
}

type Executor = Database['db'] | Transaction<Tables>;

export class FleetStore {
  readonly #db: Database['db'];
  readonly #envelope: Envelope;
  readonly #index: (registration: string) => string;
  /**
   * Registrations opened, by vehicle id, with the sealed text they came from: opening one costs
   * far more than reading its row, and the intelligence engine reads the same vehicles on every input.
   */
  readonly #opened = new Map<string, { sealed: string; registration: string }>();
  /**
   * What `findByRegistration` found (a vehicle or none), by owner and normalised registration: the
   * landing endpoint asks on every request. Forgotten by owner on every change of its vehicles,
   * here at once and on other instances when the change is announced (`forgetOwner`).
   */
  readonly #byRegistration = new HeldValues<string, Map<string, FleetVehicle | null>>();

  /** `index`: the blind indexer of registrations, `registrationIndex(master key)`. */
  constructor(database: Database, envelope: Envelope, index: (registration: string) => string) {
    this.#db = database.db;
    this.#envelope = envelope;
    this.#index = index;
  }

  /** Throws FleetValidationError for invalid fields. `idempotencyKey` makes retries return the first result. */
  async create(owner: string, input: VehicleInput, idempotencyKey?: string): Promise<CreateResult> {
    const fields = validate(input);
    const index = fields.registration === null ? null : this.#index(fields.registration);
    // The digest covers the index, not the registration: it must reveal no more than the index does.
    const fingerprint = idempotencyKey === undefined ? null
      : createHash('sha256').update(JSON.stringify({ ...fields, registration: index })).digest('base64url');
    const replay = async (): Promise<CreateResult | null> => {
      if (idempotencyKey === undefined) return null;
      const row = await this.#db.selectFrom('fleet_vehicles').selectAll().where('org_id', '=', owner).where('idempotency_key', '=', idempotencyKey).executeTakeFirst();
      if (!row) return null;
      return { status: row.idempotency_fingerprint === fingerprint ? 'existing' : 'key_reused', vehicle: this.#vehicle(row) };
    };
    const settled = async (): Promise<CreateResult | null> => {
      const clash = index !== null && (await this.#holder(this.#db, owner, index)) !== null;
      // The key is read after the registration: a retry that took the registration is then seen as such.
      return (await replay()) ?? (clash ? { status: 'duplicate_registration' } : null);
    };
    const previous = await settled();
    if (previous) return previous;

    const id = newId('veh');
    const now = new Date().toISOString();
    const row: FleetVehicleRow = {
      ...this.#columns(owner, id, fields, index),
      id,
      org_id: owner,
      idempotency_key: idempotencyKey ?? null,
      idempotency_fingerprint: fingerprint,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.#db.insertInto('fleet_vehicles').values(row).execute();
      this.forgetOwner(owner);
    } catch (error) {
      // A concurrent request took the key or the registration between the checks and the insert.
      const raced = await settled();
      if (raced) return raced;
      throw error;
    }
    return { status: 'created', vehicle: this.#vehicle(row) };
  }

  async get(owner: string, id: string): Promise<FleetVehicle | null> {
    const row = await this.#db.selectFrom('fleet_vehicles').selectAll().where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    return row ? this.#vehicle(row) : null;
  }

  /** The owner's vehicles in creation order, `limit` after the key `after`; `next` is null on the last page. */
  async list(owner: string, options: { vehicle_type?: VehicleType; limit: number; after?: ListKey }): Promise<{ data: FleetVehicle[]; next: ListKey | null }> {
    let query = this.#db.selectFrom('fleet_vehicles').selectAll().where('org_id', '=', owner);
    if (options.vehicle_type !== undefined) query = query.where('vehicle_type', '=', options.vehicle_type);
    const after = options.after;
    if (after !== undefined) {
      query = query.where((eb) => eb.or([eb('created_at', '>', after[0]), eb.and([eb('created_at', '=', after[0]), eb('id', '>', after[1])])]));
    }
    const rows = await query.orderBy('created_at').orderBy('id').limit(options.limit + 1).execute();
    const data = rows.slice(0, options.limit).map((row) => this.#vehicle(row));
    const last = data[data.length - 1];
    return { data, next: rows.length > options.limit && last ? [last.created_at, last.id] : null };
  }

  /** The owner's vehicle with this registration, however it is written (G-EUPT = geupt). */
  async findByRegistration(owner: string, registration: string): Promise<FleetVehicle | null> {
    const normalised = normaliseRegistration(registration);
    if (normalised === '') return null;
    const held = await this.#byRegistration.get(owner, async () => new Map());
    const known = held.get(normalised);
    if (known !== undefined) return known;
    const row = await this.#db.selectFrom('fleet_vehicles').selectAll()
      .where('org_id', '=', owner).where('registration_index', '=', this.#index(registration)).executeTakeFirst();
    // Forgotten meanwhile (the owner's vehicles changed): what was read may predate the change; read again.
    if (this.#byRegistration.peek(owner) !== held) return this.findByRegistration(owner, registration);
    const vehicle = row ? this.#vehicle(row) : null;
    if (held.size >= HELD_REGISTRATIONS) this.#byRegistration.forget(owner);
    else held.set(normalised, vehicle);
    return vehicle;
  }

  /** The owner's vehicles changed (here or on another instance): registrations are looked up again. */
  forgetOwner(owner: string): void {
    this.#byRegistration.forget(owner);
  }

  /** Applies `patch` and checks the whole vehicle again; throws FleetValidationError for invalid fields. */
  async update(owner: string, id: string, patch: VehiclePatch): Promise<UpdateResult> {
    const current = await this.get(owner, id);
    if (!current) return { status: 'not_found' };
    const changes = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const fields = validate({ ...current, ...changes });
    const index = fields.registration === null ? null : this.#index(fields.registration);
    const taken = async () => {
      const holder = index === null ? null : await this.#holder(this.#db, owner, index);
      return holder !== null && holder !== id;
    };
    if (await taken()) return { status: 'duplicate_registration' };
    const updatedAt = new Date().toISOString();
    let row: FleetVehicleRow | undefined;
    try {
      row = await this.#db.updateTable('fleet_vehicles')
        .set({ ...this.#columns(owner, id, fields, index), updated_at: updatedAt })
        .where('org_id', '=', owner).where('id', '=', id)
        .returningAll().executeTakeFirst();
    } catch (error) {
      if (await taken()) return { status: 'duplicate_registration' };
      throw error;
    }
    if (!row) return { status: 'not_found' };
    this.forgetOwner(owner);
    return { status: 'updated', vehicle: this.#vehicle(row) };
  }

  /** False when the owner has no such vehicle. Its notification settings go with it. */
  async delete(owner: string, id: string): Promise<boolean> {
    const deleted = await this.#db.deleteFrom('fleet_vehicles').where('org_id', '=', owner).where('id', '=', id).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) return false;
    this.#opened.delete(id);
    this.forgetOwner(owner);
    return true;
  }

  /** Every owner's vessels with an MMSI: what the vessel rules and the prediction rules watch. */
  async fleetVessels(): Promise<FleetVessel[]> {
    const rows = await this.#db.selectFrom('fleet_vehicles').select(['org_id', 'id', 'mmsi'])
      .where('vehicle_type', '=', 'vessel').where('mmsi', 'is not', null).orderBy('id').execute();
    return rows.map((row) => ({ owner: row.org_id, vehicle_id: row.id, mmsi: row.mmsi! }));
  }

  /** The organisation-wide settings (`vehicleId` null) or a vehicle's; null when the owner has no such vehicle. */
  async notificationSettings(owner: string, vehicleId: string | null): Promise<NotificationSettings | null> {
    return this.#db.transaction().execute(async (trx) => {
      if (vehicleId !== null && !(await this.#owns(trx, owner, vehicleId))) return null;
      const rows = await trx.selectFrom('notification_settings').selectAll().where('org_id', '=', owner)
        .where((eb) => (vehicleId === null ? eb('vehicle_id', 'is', null) : eb.or([eb('vehicle_id', 'is', null), eb('vehicle_id', '=', vehicleId)])))
        .execute();
      const orgWide = rows.find((row) => row.vehicle_id === null);
      const own = rows.find((row) => row.vehicle_id === vehicleId);
      const thresholds: Thresholds = own ? JSON.parse(own.thresholds) : {};
      return {
        vehicle_id: vehicleId,
        thresholds,
        effective: { ...(orgWide ? JSON.parse(orgWide.thresholds) : {}), ...thresholds },
        updated_at: own?.updated_at ?? null,
      };
    });
  }

  /**
   * Replaces the thresholds of the organisation (`vehicleId` null) or of a vehicle; null when the
   * owner has no such vehicle. Throws FleetValidationError naming each bad or unknown threshold.
   */
  async setNotificationSettings(owner: string, vehicleId: string | null, input: unknown): Promise<NotificationSettings | null> {
    const thresholds = JSON.stringify(validateThresholds(input));
    const updatedAt = new Date().toISOString();
    const saved = await this.#db.transaction().execute(async (trx) => {
      if (vehicleId !== null && !(await this.#owns(trx, owner, vehicleId))) return false;
      await trx.insertInto('notification_settings')
        .values({ org_id: owner, vehicle_id: vehicleId, thresholds, updated_at: updatedAt })
        .onConflict((oc) => (vehicleId === null
          ? oc.column('org_id').where('vehicle_id', 'is', null)
          : oc.columns(['org_id', 'vehicle_id']).where('vehicle_id', 'is not', null))
          .doUpdateSet({ thresholds, updated_at: updatedAt }))
        .execute();
      return true;
    });
    return saved ? this.notificationSettings(owner, vehicleId) : null;
  }

  /**
   * The vehicles named, each with its settings, keyed by vehicle id, in a few queries however many
   * there are: what the intelligence engine reads for the arrivals of an airport at once. A vehicle
   * that is not its owner's is left out.
   */
  async landingContexts(vehicles: readonly { owner: string; vehicleId: string }[]): Promise<Map<string, LandingContext>> {
    const wanted = new Set(vehicles.map((entry) => `${entry.owner}|${entry.vehicleId}`));
    const ids = [...new Set(vehicles.map((entry) => entry.vehicleId))];
    const owners = [...new Set(vehicles.map((entry) => entry.owner))];
    const rows: FleetVehicleRow[] = [];
    for (let i = 0; i < ids.length; i += LOOKUP_CHUNK) {
      rows.push(...await this.#db.selectFrom('fleet_vehicles').selectAll().where('id', 'in', ids.slice(i, i + LOOKUP_CHUNK)).execute());
    }
    const settingsRows = [];
    for (let i = 0; i < owners.length; i += LOOKUP_CHUNK) {
      settingsRows.push(...await this.#db.selectFrom('notification_settings').selectAll().where('org_id', 'in', owners.slice(i, i + LOOKUP_CHUNK)).execute());
    }
    const orgWide = new Map<string, Thresholds>();
    const own = new Map<string, Thresholds>();
    for (const row of settingsRows) {
      if (row.vehicle_id === null) orgWide.set(row.org_id, JSON.parse(row.thresholds));
      else own.set(`${row.org_id}|${row.vehicle_id}`, JSON.parse(row.thresholds));
    }
    const contexts = new Map<string, LandingContext>();
    for (const row of rows) {
      if (!wanted.has(`${row.org_id}|${row.id}`)) continue;
      const thresholds = own.get(`${row.org_id}|${row.id}`) ?? {};
      contexts.set(row.id, { vehicle: this.#vehicle(row), settings: { thresholds, effective: { ...orgWide.get(row.org_id), ...thresholds } } });
    }
    return contexts;
  }

  async #owns(db: Executor, owner: string, id: string): Promise<boolean> {
    return (await db.selectFrom('fleet_vehicles').select('id').where('org_id', '=', owner).where('id', '=', id).executeTakeFirst()) !== undefined;
  }

  /** The id of the owner's vehicle holding this registration index, or null. */
  async #holder(db: Executor, owner: string, index: string): Promise<string | null> {
    const row = await db.selectFrom('fleet_vehicles').select('id').where('org_id', '=', owner).where('registration_index', '=', index).executeTakeFirst();
    return row?.id ?? null;
  }

  #columns(owner: string, id: string, fields: VehicleFields, index: string | null) {
    const { registration, operational_regions, ...rest } = fields;
    return {
      ...rest,
      registration_sealed: registration === null ? null : this.#envelope.seal(registration, sealContext(owner, id)),
      registration_index: index,
      operational_regions: JSON.stringify(operational_regions),
    };
  }

  #registrationOf(row: FleetVehicleRow): string | null {
    const sealed = row.registration_sealed;
    if (sealed === null) return null;
    const opened = this.#opened.get(row.id);
    if (opened?.sealed === sealed) return opened.registration;
    const registration = this.#envelope.open(sealed, sealContext(row.org_id, row.id)).toString('utf8');
    this.#opened.set(row.id, { sealed, registration });
    return registration;
  }

  #vehicle(row: FleetVehicleRow): FleetVehicle {
    return {
      id: row.id,
      vehicle_type: row.vehicle_type as VehicleType,
      registration: this.#registrationOf(row),
      icao_type: row.icao_type,
      home_base_icao: row.home_base_icao,
      operational_regions: JSON.parse(row.operational_regions),
      mmsi: row.mmsi,
      imo: row.imo,
      crosswind_limit_kt: row.crosswind_limit_kt,
      min_runway_m: row.min_runway_m,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
