// The ports the simulated fleet calls at: a curated set of real commercial and ferry ports, looked
// up by UN/LOCODE in the built-in port index (sea-ports with the World Port Index), at the position
// the port index serves, so that a simulated vessel moored there lies in the port's approach area
// (sea-ports alone puts Los Angeles in the city and Yantian 400 nm up the coast). A port is used
// only when it joins the sea-lane network within MAX_SNAP_NM, which keeps port approaches (the
// straight connector to the network) short. Reading the port index to find them is done on a
// passing thread (`findSimulatorPortsAside`), so what the reading used goes with it.
import { runWorkerTask } from '../../../platform/worker-task.ts';
import { builtInPorts } from '../../ports/ports.ts';
import { distanceNm, snapToNetwork } from '../../sea-routes/index.ts';

export interface SimPort {
  locode: string;
  name: string;
  /** ISO 3166-1 alpha-2: the first two letters of the UN/LOCODE. */
  country: string;
  lat: number;
  lon: number;
  /** Relative share of calls. */
  weight: number;
  /** Distance from the port position to the sea-lane network. */
  snapNm: number;
}

export const MAX_SNAP_NM = 50;

// [UN/LOCODE, weight]: weights roughly follow container/cargo throughput tiers.
const CURATED: readonly (readonly [string, number])[] = [
  // Europe
  ['NLRTM', 5], ['BEANR', 4], ['DEHAM', 4], ['DEBRV', 3], ['GBFXT', 2], ['GBSOU', 2], ['FRLEH', 2],
  ['ESALG', 3], ['ESVLC', 3], ['ESBCN', 2], ['ITGOA', 2], ['ITGIT', 2], ['GRPIR', 3], ['TRIST', 2],
  ['MTMAR', 2], ['PTSIE', 1], ['PLGDN', 2], ['SEGOT', 2], ['NOOSL', 1], ['DKAAR', 1], ['FIHEL', 1],
  ['RULED', 2], ['ESLPA', 1], ['IEDUB', 1], ['GBLIV', 1], ['GRSKG', 1], ['ITTRS', 1], ['HRRJK', 1],
  ['NOBGO', 1], ['ISREY', 1], ['GBDVR', 1], ['FRCQF', 1], ['EETLL', 1], ['DKCPH', 1], ['SEMMA', 1],
  ['DEKEL', 1], ['NOKRS', 1], ['ITNAP', 1], ['ITPMO', 1], ['GRHER', 1], ['ESPMI', 1], ['SEHEL', 1],
  ['FRMRS', 1], ['GBHRW', 1], ['GBPME', 1], ['ESBIO', 1], ['ITLIV', 1], ['ITVCE', 1], ['GRRHO', 1],
  ['TRIZM', 1], ['HRSPU', 1], ['GBABD', 1], ['GBBEL', 1], ['GBHUL', 1], ['NLAMS', 1],
  // Mediterranean south and east, Middle East, Africa
  ['EGPSD', 3], ['EGSUZ', 1], ['EGALY', 1], ['LBBEY', 1], ['ILHFA', 1], ['ILASH', 1], ['CYLMS', 1],
  ['TNTUN', 1], ['DZALG', 1], ['LYTIP', 1], ['MAPTM', 3], ['MATNG', 1], ['SAJED', 3], ['AEJEA', 4],
  ['OMSLL', 2], ['IRBND', 1], ['KWSAA', 1], ['ZADUR', 2], ['ZACPT', 1], ['ZARCB', 1], ['KEMBA', 1],
  ['TZDAR', 1], ['TGLFW', 1], ['SNDKR', 1], ['MUPLU', 1],
  // Asia
  ['CNSHA', 5], ['CNNGB', 5], ['CNSZX', 5], ['CNYTN', 2], ['CNTAO', 4], ['CNTXG', 3], ['CNXMN', 2],
  ['CNDLC', 2], ['HKHKG', 4], ['MOMFM', 1], ['TWKHH', 3], ['KRPUS', 5], ['KRINC', 2], ['JPTYO', 2],
  ['JPYOK', 2], ['JPUKB', 2], ['SGSIN', 5], ['IDBTM', 1], ['MYPKG', 4], ['MYTPP', 3], ['THLCH', 2],
  ['IDJKT', 2], ['PHMNL', 2], ['VNHPH', 1], ['INNSA', 3], ['INMAA', 1], ['LKCMB', 3], ['BDCGP', 1],
  ['PKKHI', 1], ['RUVVO', 1],
  // Oceania
  ['AUSYD', 2], ['AUMEL', 2], ['AUBNE', 2], ['AUFRE', 1], ['NZAKL', 1], ['NZWLG', 1], ['FJSUV', 1],
  ['PGPOM', 1], ['NCNOU', 1],
  // Americas
  ['USNYC', 4], ['USSAV', 3], ['USHOU', 3], ['USLAX', 4], ['USLGB', 4], ['USOAK', 2], ['USSEA', 2],
  ['USTIW', 1], ['USBOS', 1], ['USSFO', 1], ['USJAX', 1], ['USPEF', 1], ['USMOB', 1], ['USGLS', 1],
  ['USMIA', 1], ['USORF', 2], ['USCHS', 2], ['USBAL', 1], ['USANC', 1], ['USHNL', 1], ['CAVAN', 3],
  ['CAHAL', 1], ['CAMTR', 1], ['PABLB', 2], ['PAONX', 2], ['MXZLO', 2], ['BSNAS', 1], ['JMKIN', 1],
  ['TTPOS', 1], ['COCTG', 2], ['BRSSZ', 3], ['BRRIO', 1], ['BRRIG', 1], ['ARBUE', 1], ['UYMVD', 1],
  ['CLSAI', 1], ['CLVAP', 1], ['PECLL', 1],
];

/** A curated port as the built-in port index serves it. */
export type CuratedPort = Pick<SimPort, 'locode' | 'name' | 'lat' | 'lon' | 'weight'>;

/** The curated ports the built-in port index has (it is read and merged whole: 5 MB of heap). */
export function curatedPorts(): CuratedPort[] {
  const byCode = new Map(builtInPorts().map((port) => [port.id, port]));
  return CURATED.flatMap(([locode, weight]) => {
    const entry = byCode.get(locode);
    return entry === undefined ? [] : [{ locode, name: entry.name, lat: entry.lat, lon: entry.lon, weight }];
  });
}

let found: readonly CuratedPort[] | undefined;
let cached: readonly SimPort[] | undefined;

/** Finds the curated ports on a thread of its own (`signal`: the feed closing); `simulatorPorts` then uses them. */
export async function findSimulatorPortsAside(signal?: AbortSignal): Promise<void> {
  if (found !== undefined || cached !== undefined) return;
  found = await runWorkerTask(new URL('./ports-worker.ts', import.meta.url), { task: 'simulator port finding', signal }, (message) => message as CuratedPort[]);
}

/** The usable ports, made once (from the ports found aside, else by reading the port index here); empty when the data cannot be read. */
export function simulatorPorts(): readonly SimPort[] {
  if (cached !== undefined) return cached;
  let curated: readonly CuratedPort[];
  try {
    curated = found ?? curatedPorts();
  } catch {
    cached = [];
    return cached;
  }
  const ports: SimPort[] = [];
  for (const port of curated) {
    const snap = snapToNetwork(port);
    if (!snap.ok || snap.snap.distance_nm > MAX_SNAP_NM) continue;
    ports.push({ ...port, country: port.locode.slice(0, 2), snapNm: snap.snap.distance_nm });
  }
  cached = ports;
  return cached;
}

/** Ports other than `port` whose straight-line distance is between minNm and maxNm, nearest first. */
export function portsNear(ports: readonly SimPort[], port: SimPort, maxNm: number, minNm = 0): SimPort[] {
  return ports
    .map((other) => ({ other, distance: distanceNm([port.lon, port.lat], [other.lon, other.lat]) }))
    .filter(({ other, distance }) => other !== port && distance >= minNm && distance <= maxNm)
    .sort((a, b) => a.distance - b.distance)
    .map(({ other }) => other);
}
