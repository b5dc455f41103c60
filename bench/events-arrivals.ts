// The landing rules of 10,000 watched arrivals at EGLL re-evaluated after one METAR push, against
// building the same 10,000 landing answers one at a time (what a per-arrival evaluation costs
// before any fleet or event look-up), in the same run. Real storage (a SQLite file in a temp
// folder), the real airport data, the real stores and rules, in process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LandingWatch } from '../src/aviation/index.ts';
import type { AviationServices } from '../src/aviation/services.ts';
import { landingBundle } from '../src/aviation/landing/bundle.ts';
import { LandingInputs } from '../src/aviation/landing/inputs.ts';
import { SlotBook } from '../src/aviation/landing/slots.ts';
import { NavData } from '../src/aviation/navdata/navdata.ts';
import { NotamStore } from '../src/aviation/notams/store.ts';
import { loadAirports } from '../src/aviation/reference/airports.ts';
import { WeatherReports } from '../src/aviation/weather/reports.ts';
import { defaultConfig } from '../src/config.ts';
import { EventStore } from '../src/events/index.ts';
import { ArrivalStore, fleetProfiles, landingProfileFor, openFleetStore, type FleetVehicle } from '../src/fleet/index.ts';
import { ArrivalStateStore } from '../src/intelligence/arrival-state.ts';
import { LandingRules } from '../src/intelligence/landing-rules.ts';
import { MIGRATIONS } from '../src/migrations.ts';
import { openBus } from '../src/platform/bus/index.ts';
import { openDatabase } from '../src/platform/db/database.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { newId } from '../src/platform/ids.ts';
import { formatInt, formatRatio, formatTable, intFlag, medianRatio, runAsScript, timeInterleaved } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'landing rules of 10,000 watched arrivals at EGLL after one METAR push, against building their 10,000 landing answers one at a time';

const OWNERS = 20;
const VEHICLES = 1_000;
const TYPES = ['A320', 'B738', 'A388', 'E190', 'B77W'];
/** ETAs every 5 minutes over the next day: 288 distinct ones, as a real schedule rounds them. */
const ETA_STEP_MS = 5 * 60_000;
const ETA_STEPS = 288;

const two = (n: number) => String(n).padStart(2, '0');
const dayHourMinute = (at: Date) => `${two(at.getUTCDate())}${two(at.getUTCHours())}${two(at.getUTCMinutes())}`;
function metar(wind: string): string {
  return `METAR EGLL ${dayHourMinute(new Date(Date.now() - 5 * 60_000))}Z ${wind} 9999 FEW030 12/05 Q1013`;
}
/** A TAF with the same wind over the next 30 hours: the weather at the ETAs past the METAR's hour. */
function taf(wind: string): string {
  const from = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000);
  const to = new Date(from.getTime() + 30 * 3_600_000);
  const dayHour = (at: Date) => `${two(at.getUTCDate())}${two(at.getUTCHours())}`;
  return `TAF EGLL ${dayHourMinute(new Date(Date.now() - 5 * 60_000))}Z ${dayHour(from)}/${dayHour(to)} ${wind} 9999 FEW030`;
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const arrivalCount = intFlag(options, 'arrivals', 10_000);
  const runs = intFlag(options, 'runs', 5);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-events-'));
  const config = defaultConfig({ dataDir, logLevel: 'silent', aisSimulator: 'off', aviationSimulators: 'off' });
  const database = openDatabase(config);
  const bus = await openBus(config, (error) => { throw error; });
  try {
    await migrate(database.db, database.dialect, MIGRATIONS);
    const key = Buffer.alloc(32, 7);
    const fleet = openFleetStore(database, key);
    const airports = await loadAirports({ cacheDir: path.join(tmpdir(), 'lamis-bench-reference-cache') });
    const weather = new WeatherReports(database);
    const notams = new NotamStore(database);
    const slots = new SlotBook(database);
    const services: AviationServices = {
      airports, navdata: new NavData(null, []), weather, notams, slots, inputs: new LandingInputs({ weather, notams, slots }), fleet: fleetProfiles(fleet),
      sources: { weather: 'operator_only', notams: 'operator_only' }, slotShareOf: async () => 0.5,
    };
    const landing = new LandingWatch();
    landing.attach(services);
    const events = new EventStore(database, bus);
    const rules = new LandingRules({ arrivals: new ArrivalStore(database), fleet, landing, events, state: new ArrivalStateStore(database) });

    // The fleets: 1,000 aircraft of 20 owners; half the owners alert on a 15 kt crosswind.
    const vehicles: { owner: string; vehicle: FleetVehicle }[] = [];
    for (let n = 0; n < VEHICLES; n++) {
      const owner = `org_bench_${n % OWNERS}`;
      const result = await fleet.create(owner, { vehicle_type: 'aircraft', registration: `G-B${String(n).padStart(3, '0')}`, icao_type: TYPES[n % TYPES.length]! });
      if (result.status !== 'created') throw new Error(`vehicle ${n}: ${result.status}`);
      vehicles.push({ owner, vehicle: result.vehicle });
    }
    for (let n = 0; n < OWNERS; n += 2) await fleet.setNotificationSettings(`org_bench_${n}`, null, { crosswind_kt_above: 15 });
    const start = Math.ceil(Date.now() / ETA_STEP_MS) * ETA_STEP_MS + ETA_STEP_MS;
    const now = new Date().toISOString();
    const rows = Array.from({ length: arrivalCount }, (_, n) => {
      const { owner, vehicle } = vehicles[n % VEHICLES]!;
      return { id: newId('arr'), org_id: owner, vehicle_id: vehicle.id, destination_icao: 'EGLL', eta_utc: new Date(start + (n % ETA_STEPS) * ETA_STEP_MS).toISOString(), created_at: now, updated_at: now };
    });
    await database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 100) await trx.insertInto('planned_arrivals').values(rows.slice(i, i + 100)).execute();
    });
    const airport = airports.get('EGLL')!;
    const vehicleOf = new Map(vehicles.map(({ vehicle }) => [vehicle.id, vehicle]));
    // Each report written once: pushing it again is the same METAR (and TAF, for the ETAs past the METAR's hour) again.
    const reports = new Map(['36022KT', '27005KT'].map((wind) => [wind, { metar: metar(wind), taf: taf(wind) }]));
    const push = async (wind: string) => {
      for (const kind of ['metar', 'taf'] as const) {
        const stored = await weather.submit('EGLL', kind, reports.get(wind)![kind]);
        if (!stored.ok) throw new Error(stored.error.message);
      }
    };
    const openCount = async () => Number((await database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('state', '=', 'open').executeTakeFirstOrThrow()).n);

    // A first evaluation records what is seen of every arrival (written once, as on a first start).
    await push('36022KT');
    await rules.evaluateAirport('EGLL');

    // The METAR held: the baseline reads it, the repeat pushes it again, the move replaces it.
    let held = '36022KT';
    const cases = [
      {
        label: `${formatInt(arrivalCount)} landing answers, one at a time (baseline)`,
        warmup: () => Promise.resolve(),
        pass: async () => {
          for (const row of rows) {
            const vehicle = vehicleOf.get(row.vehicle_id)!;
            await landingBundle(services, {
              airport, etaMs: Date.parse(row.eta_utc), registration: vehicle.registration!, vehicleType: 'aircraft', profile: landingProfileFor(vehicle)!, profileSource: 'fleet',
            }, row.id);
          }
          return rows.length;
        },
      },
      {
        label: 'rules after the same METAR again (no edge)',
        warmup: () => Promise.resolve(),
        pass: async () => {
          await push(held);
          await rules.evaluateAirport('EGLL');
          return rows.length;
        },
      },
      {
        label: 'rules after a METAR moving every arrival (edges)',
        warmup: () => Promise.resolve(),
        pass: async () => {
          // Alternately a crosswind over the 15 kt alerts and a calm: half the arrivals open or clear, every one's runway moves.
          held = held === '36022KT' ? '27005KT' : '36022KT';
          await push(held);
          await rules.evaluateAirport('EGLL');
          return rows.length;
        },
      },
    ];
    const timings = await timeInterleaved(cases, { runs, minRuns: 3, budgetMs: 120_000, warmups: 0 });
    const failed = timings.find((timing) => timing.error !== undefined);
    if (failed) throw failed.error;
    const [baseline, steady, moving] = timings.map((timing) => timing.timing) as [typeof timings[0]['timing'], typeof timings[0]['timing'], typeof timings[0]['timing']];
    const perArrival = (ms: number) => `${((ms * 1000) / arrivalCount).toFixed(1)} µs`;

    console.log(`\n${formatInt(arrivalCount)} watched arrivals at EGLL (${formatInt(VEHICLES)} aircraft of ${OWNERS} owners, ${ETA_STEPS} distinct ETAs), ${steady.samplesMs.length} rounds; ${formatInt(await openCount())} events open at the end\n`);
    console.log(formatTable(['case', '>median ms', '>per arrival', '>vs baseline'], [
      [cases[0]!.label, formatInt(baseline.medianMs), perArrival(baseline.medianMs), '1.00×'],
      [cases[1]!.label, formatInt(steady.medianMs), perArrival(steady.medianMs), formatRatio(medianRatio(baseline, steady))],
      [cases[2]!.label, formatInt(moving.medianMs), perArrival(moving.medianMs), formatRatio(medianRatio(baseline, moving))],
    ]));
    return {
      name: 'events-arrivals',
      headline: [
        `re-evaluating ${formatInt(arrivalCount)} arrivals after a repeat METAR: ${formatInt(steady.medianMs)} ms (${perArrival(steady.medianMs)} each), ${formatRatio(medianRatio(baseline, steady))} faster than building their answers one at a time`,
        `after a METAR moving every arrival: ${formatInt(moving.medianMs)} ms (${perArrival(moving.medianMs)} each), ${formatRatio(medianRatio(baseline, moving))} the baseline's speed`,
      ],
      data: { arrivals: arrivalCount, baseline, steady, moving },
    };
  } finally {
    await bus.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.main) await runAsScript('events-arrivals', { description, run });
