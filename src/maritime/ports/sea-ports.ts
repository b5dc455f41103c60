// The built-in ports: the sea-ports npm package (UN/LOCODE-keyed JSON with names, [lon, lat]
// positions, aliases and IANA time zones). Left out: records without coordinates, and the
// duplicates the package keeps under a second code of the same port (CNDAL beside CNDLC, both
// listing CNDLC first), so each port appears once under the code it lists first.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { SeaPortEntry } from './model.ts';
import { normaliseUnlocode } from './places.ts';

type RawSeaPort = {
  name?: unknown;
  coordinates?: unknown;
  alias?: unknown;
  timezone?: unknown;
  unlocs?: unknown;
};

export const SEA_PORTS_PACKAGE = 'sea-ports';

export type SeaPortsData = { readonly version: string; readonly entries: readonly SeaPortEntry[] };

let cached: SeaPortsData | undefined;

/** The package's ports, read once for the port index and the simulated fleet alike. Throws when the package is missing or unreadable: it is a dependency. */
export function seaPorts(): SeaPortsData {
  if (cached !== undefined) return cached;
  const require = createRequire(import.meta.url);
  const version = String((JSON.parse(readFileSync(require.resolve(`${SEA_PORTS_PACKAGE}/package.json`), 'utf8')) as { version?: unknown }).version);
  const data = JSON.parse(readFileSync(require.resolve(`${SEA_PORTS_PACKAGE}/lib/ports.json`), 'utf8')) as Record<string, RawSeaPort>;
  const entries: SeaPortEntry[] = [];
  for (const [key, record] of Object.entries(data)) {
    const unlocode = normaliseUnlocode(key);
    if (unlocode === null || typeof record.name !== 'string' || !isLonLat(record.coordinates)) continue;
    const listed = Array.isArray(record.unlocs) ? record.unlocs : [];
    if (typeof listed[0] === 'string' && listed[0] !== key && data[listed[0]] !== undefined) continue;
    const [lon, lat] = record.coordinates;
    const aliases = Array.isArray(record.alias) ? record.alias.filter((alias): alias is string => typeof alias === 'string') : [];
    entries.push({
      unlocode,
      name: record.name.trim(),
      alternate_names: [...new Set(aliases.map((alias) => alias.trim()))].filter((alias) => alias !== '' && alias !== record.name),
      country: unlocode.slice(0, 2),
      lat,
      lon,
      timezone: typeof record.timezone === 'string' && record.timezone !== '' ? record.timezone : null,
    });
  }
  cached = { version, entries };
  return cached;
}

function isLonLat(value: unknown): value is [number, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number' &&
    Math.abs(value[0]) <= 180 &&
    Math.abs(value[1]) <= 90
  );
}
