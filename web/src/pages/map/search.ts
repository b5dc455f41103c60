// What a search on the live map means: a 9-digit number is an MMSI, 7 digits (with or without
// "IMO") an IMO number, anything else a vessel or port name. Vessels already on the map answer at
// once; the API is asked for the rest.

export type MapQuery =
  | { kind: 'mmsi'; mmsi: number }
  | { kind: 'imo'; imo: number }
  | { kind: 'name'; text: string }
  | { kind: 'none' };

/** Names this short would match half the map and cost a request per key stroke. */
const MIN_NAME_LENGTH = 3;

export function parseMapQuery(input: string): MapQuery {
  const text = input.trim().replace(/\s+/g, ' ');
  const imo = /^imo\s*(\d{7})$/i.exec(text) ?? /^(\d{7})$/.exec(text);
  if (imo) return { kind: 'imo', imo: Number(imo[1]) };
  if (/^\d{9}$/.test(text)) return { kind: 'mmsi', mmsi: Number(text) };
  if (text.length >= MIN_NAME_LENGTH) return { kind: 'name', text };
  return { kind: 'none' };
}

/** Whether a vessel on the map answers the query (names: every word, any case, anywhere in the name). */
export function vesselMatches(vessel: { mmsi: number; imo: number | null; name: string | null }, query: MapQuery): boolean {
  switch (query.kind) {
    case 'mmsi':
      return vessel.mmsi === query.mmsi;
    case 'imo':
      return vessel.imo === query.imo;
    case 'name': {
      const name = vessel.name?.toUpperCase();
      return !!name && query.text.toUpperCase().split(' ').every((word) => name.includes(word));
    }
    case 'none':
      return false;
  }
}
