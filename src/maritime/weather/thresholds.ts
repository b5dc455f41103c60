// Which weather limits apply at a port, layer by layer: the default for its harbour size and
// shelter, then the instance-wide values the instance's operators set, then the caller's organisation's own. Each
// limit comes from the highest layer that sets it.
import type { Database } from '../../platform/db/database.ts';
import type { Port } from '../ports/ports.ts';
import { defaultThresholds, THRESHOLD_NAMES, type ThresholdName, type WeatherThresholds } from './holds.ts';
import type { PortWeatherThresholdsRow } from './thresholds.table.ts';

/** The owner of the instance-wide row: no organisation id looks like it. */
export const INSTANCE_OWNER = '*';

export type ThresholdLayer = 'default' | 'instance' | 'organisation';
export type ThresholdOverrides = Record<ThresholdName, number | null>;

export interface StoredOverrides {
  values: ThresholdOverrides;
  updated_at: string;
}

export interface EffectiveThresholds {
  values: WeatherThresholds;
  sources: Record<ThresholdName, ThresholdLayer>;
}

export interface PortThresholds {
  defaults: WeatherThresholds;
  /** What the defaults are for: the harbour size (or `unknown`) and the shelter when known. */
  defaults_basis: string;
  instance: StoredOverrides | null;
  /** null for operator keys, which set the instance-wide layer. */
  organisation: StoredOverrides | null;
  effective: EffectiveThresholds;
}

export class PortWeatherThresholdStore {
  readonly #database: Database;

  constructor(database: Database) {
    this.#database = database;
  }

  /** Every layer at the port for a caller of this organisation (null: an operator of the instance). */
  async layers(port: Port, organisation: string | null): Promise<PortThresholds> {
    const owners = organisation === null ? [INSTANCE_OWNER] : [INSTANCE_OWNER, organisation];
    const rows = await this.#database.db
      .selectFrom('port_weather_thresholds')
      .selectAll()
      .where('port_id', '=', port.id)
      .where('owner', 'in', owners)
      .execute();
    const byOwner = new Map(rows.map((row) => [row.owner, { values: pick(row), updated_at: row.updated_at }]));
    const { values: defaults, basis } = defaultThresholds(port);
    const instance = byOwner.get(INSTANCE_OWNER) ?? null;
    const own = organisation === null ? null : byOwner.get(organisation) ?? null;
    return { defaults, defaults_basis: basis, instance, organisation: own, effective: effective(defaults, instance, own) };
  }

  /** Replaces one owner's values at the port; all null removes its row. */
  async write(owner: string, portId: string, values: ThresholdOverrides): Promise<void> {
    const db = this.#database.db;
    if (THRESHOLD_NAMES.every((name) => values[name] === null)) {
      await db.deleteFrom('port_weather_thresholds').where('owner', '=', owner).where('port_id', '=', portId).execute();
      return;
    }
    const row = { ...values, updated_at: new Date().toISOString() };
    await db.insertInto('port_weather_thresholds')
      .values({ owner, port_id: portId, ...row })
      .onConflict((oc) => oc.columns(['owner', 'port_id']).doUpdateSet(row))
      .execute();
  }
}

function effective(defaults: WeatherThresholds, instance: StoredOverrides | null, own: StoredOverrides | null): EffectiveThresholds {
  const values = { ...defaults };
  const sources = Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, 'default'])) as Record<ThresholdName, ThresholdLayer>;
  for (const [layer, stored] of [['instance', instance], ['organisation', own]] as const) {
    for (const name of THRESHOLD_NAMES) {
      const value = stored?.values[name] ?? null;
      if (value === null) continue;
      values[name] = value;
      sources[name] = layer;
    }
  }
  return { values, sources };
}

function pick(row: PortWeatherThresholdsRow): ThresholdOverrides {
  return Object.fromEntries(THRESHOLD_NAMES.map((name) => [name, row[name]])) as ThresholdOverrides;
}
