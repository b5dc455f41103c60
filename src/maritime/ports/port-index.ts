// The in-memory port index: lookups by id, UN/LOCODE or WPI number, and search by words, country
// and distance through the platform's place index, which describes the order and the cursor.
//
// Codes are the id, the UN/LOCODE (also written with its space, "NL RTM") and the WPI number;
// names are the name and each alternate name. Within a match, larger harbours come first and those
// of unknown size last.
import { placeIndexBuilder } from '../../platform/geo/place-index.ts';
import type { HarbourSize, Port, PortDataMeta, PortIndex } from './model.ts';

export { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../../platform/geo/place-index.ts';

const SIZE_ORDER: readonly (HarbourSize | null)[] = ['large', 'medium', 'small', 'very_small', null];

/** `ports` must be ordered by id, as mergePorts returns them. */
export function createPortIndex(ports: readonly Port[], meta: PortDataMeta): PortIndex {
  const builder = portIndexBuilder(meta);
  builder.add(ports);
  return builder.finish();
}

/** The same index, given its ports a batch at a time, in id order (see `placeIndexBuilder`). */
export function portIndexBuilder(meta: PortDataMeta): { add(ports: readonly Port[]): void; finish(): PortIndex } {
  const places = placeIndexBuilder<Port>({
    key: (port) => port.id,
    position: (port) => port,
    codes: (port) => [port.id, port.unlocode, port.wpi_number === null ? null : String(port.wpi_number)],
    names: (port) => [port.name, ...port.alternate_names.map((alternate) => alternate.name)],
    spacedCodes: true,
    groups: SIZE_ORDER.length,
    group: (port) => SIZE_ORDER.indexOf(port.harbour_size),
  });
  const ports: Port[] = [];
  const byId = new Map<string, Port>();
  const byWpi = new Map<number, Port>();
  const add = (batch: readonly Port[]) => {
    places.add(batch);
    for (const port of batch) {
      ports.push(port);
      byId.set(port.id, port);
      if (port.wpi_number !== null) byWpi.set(port.wpi_number, port);
    }
  };

  const finish = (): PortIndex => {
    const index = places.finish();
    return {
      meta,
      ports,
      get(id) {
        const key = id.trim().toUpperCase();
        const wpi = /^WPI-(\d+(?:\.\d+)?)$/.exec(key);
        return (wpi === null ? byId.get(key) : byWpi.get(Number(wpi[1]))) ?? null;
      },
      byWpiNumber: (wpiNumber) => byWpi.get(wpiNumber) ?? null,
      search(query) {
        const country = query.country?.trim().toUpperCase();
        const result = index.search(query, (port) => country === undefined || port.country === country);
        return {
          items: result.items.map(({ item, distance_nm, sort_key }) => ({ port: item, distance_nm, sort_key })),
          next_after: result.next_after,
        };
      },
    };
  };
  return { add, finish };
}
