// Ports: the built-in sea-ports data and World Port Index merged with whatever World Port Index and
// UN/LOCODE data has been imported into the data folder (`lamis import`, `lamis data sync`). An
// imported World Port Index replaces the built-in one whole. A running service reads the imports
// when it starts; restart it to serve a newer import.
import { mergePorts } from './merge.ts';
import type { Port, PortIndex } from './model.ts';
import { createPortIndex } from './port-index.ts';
import { SEA_PORTS_PACKAGE, seaPorts } from './sea-ports.ts';
import { readImport } from './store.ts';
import { wpiReference } from './wpi-reference.ts';

export type * from './model.ts';
export { APPROACH_RADIUS_NM, HARBOUR_SIZES, HARBOUR_TYPES, PORT_SOURCES, SHELTERS } from './model.ts';

export type LoadedPorts = PortIndex & {
  /** Imported files that exist but could not be read (they are left out), for the log. */
  readonly problems: readonly string[];
};

let builtIn: readonly Port[] | undefined;

/** sea-ports merged with the built-in World Port Index, as served when nothing is imported; merged once. */
export function builtInPorts(): readonly Port[] {
  builtIn ??= mergePorts({ seaPorts: seaPorts().entries, wpi: wpiReference().entries, unlocode: [] });
  return builtIn;
}

export async function loadPorts(options: { readonly dataDir: string }): Promise<LoadedPorts> {
  const seaPortsData = seaPorts();
  const [imported, unlocode] = await Promise.all([readImport(options.dataDir, 'wpi'), readImport(options.dataDir, 'unlocode')]);
  const problems = [imported, unlocode].flatMap((stored) => (stored.status === 'unreadable' ? [`${stored.file}: ${stored.error}`] : []));
  const wpi = imported.status === 'loaded' ? { ...imported, built_in: false } : { ...wpiReference(), built_in: true };
  const ports = wpi.built_in && unlocode.status !== 'loaded' ? builtInPorts() : mergePorts({
    seaPorts: seaPortsData.entries,
    wpi: wpi.entries,
    unlocode: unlocode.status === 'loaded' ? unlocode.entries : [],
  });
  const index = createPortIndex(ports, {
    sea_ports: { package: SEA_PORTS_PACKAGE, version: seaPortsData.version, entries: seaPortsData.entries.length },
    wpi: { ...wpi.meta, built_in: wpi.built_in },
    unlocode: unlocode.status === 'loaded' ? unlocode.meta : null,
    ports: ports.length,
  });
  return { ...index, problems };
}
