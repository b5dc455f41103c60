// How vessel data reads on the map's panels.

/** AIS navigational status (ITU-R M.1371-5, message 1 field 5). */
const NAV_STATUS: Record<number, string> = {
  0: 'Under way using engine',
  1: 'At anchor',
  2: 'Not under command',
  3: 'Restricted manoeuvrability',
  4: 'Constrained by her draught',
  5: 'Moored',
  6: 'Aground',
  7: 'Engaged in fishing',
  8: 'Under way sailing',
  11: 'Towing astern',
  12: 'Pushing ahead or towing alongside',
  14: 'AIS-SART, MOB or EPIRB active',
  15: 'Not defined',
};

export function navStatusText(status: number | null | undefined): string {
  if (status === null || status === undefined) return '–';
  return NAV_STATUS[status] ?? `Reserved (${status})`;
}

/** `51°55.20′N 4°30.00′E`: degrees and decimal minutes, as charts and radios give positions. */
export function formatPosition(lat: number, lon: number): string {
  const part = (value: number, positive: string, negative: string, width: number) => {
    const absolute = Math.abs(value);
    let degrees = Math.floor(absolute);
    let minutes = Math.round((absolute - degrees) * 60 * 100) / 100;
    if (minutes >= 60) {
      degrees += 1;
      minutes = 0;
    }
    return `${String(degrees).padStart(width, '0')}°${minutes.toFixed(2).padStart(5, '0')}′${value < 0 ? negative : positive}`;
  };
  return `${part(lat, 'N', 'S', 2)} ${part(lon, 'E', 'W', 3)}`;
}

export function formatKnots(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${value.toFixed(1)} kn`;
}

export function formatDegrees(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : `${Math.round(value) % 360}°`;
}

export function formatMetres(value: number | null | undefined, decimals = 1): string {
  return value === null || value === undefined ? '–' : `${value.toFixed(decimals)} m`;
}
