// The landing briefing page: choose the destination, the aircraft and the ETA; the choice goes
// into the address (`/landing?icao=EGLL&reg=G-EUPT&kind=aircraft&eta=…`), so a briefing can be
// reloaded, shared and linked to from Home, and the briefing is read from the address.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { data } from '../../api/data-key.ts';
import { errorCode } from '../../api/errors.ts';
import { useMembership } from '../../api/session.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate, usePageTitle, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { SelectField, TextField } from '../../app/ui/forms.tsx';
import { vehicleName, type Vehicle } from '../fleet/vehicle-form.ts';
import { AirportSearch, type ChosenAirport } from './AirportSearch.tsx';
import { Briefing } from './Briefing.tsx';
import { utcFromInput, utcInputValue } from './format.ts';
import type { Airport, LandingBundle, LandingRequest, MetarReport } from './types.ts';
import './landing.css';

type AircraftKind = 'aircraft' | 'helicopter';
const OTHER = 'other';

/** Runways do not change while the page is open: one request per airport. */
const airports = new Map<string, Promise<Airport>>();
function airportDetail(icao: string): Promise<Airport> {
  let known = airports.get(icao);
  if (!known) {
    known = data('GET /v3/aviation/airports/{icao}', { path: { icao } });
    known.catch(() => airports.delete(icao));
    airports.set(icao, known);
  }
  return known;
}

/** An hour from now, on a five-minute mark: a sensible first ETA. */
function defaultEta(): string {
  const step = 5 * 60_000;
  return utcInputValue(Math.ceil((Date.now() + 3_600_000) / step) * step);
}

type Asked =
  | { state: 'none' }
  /** It names a fleet vehicle and the fleet is still loading. */
  | { state: 'waiting' }
  | { state: 'unknown_vehicle' }
  | { state: 'ready'; request: LandingRequest };

/**
 * What the address asks for: a destination, an ETA and either a fleet vehicle (`vehicle=veh_…`,
 * so that fleet registrations stay out of addresses) or another aircraft (`reg`, `kind`, `type`).
 */
function askedFor(query: URLSearchParams, fleet: Vehicle[] | undefined): Asked {
  const icao = query.get('icao');
  const eta = query.get('eta');
  const vehicleId = query.get('vehicle');
  if (!icao || !eta) return { state: 'none' };
  if (vehicleId) {
    if (fleet === undefined) return { state: 'waiting' };
    const vehicle = fleet.find((v) => v.id === vehicleId);
    if (!vehicle) return { state: 'unknown_vehicle' };
    return { state: 'ready', request: { destination_icao: icao, vehicle_type: vehicle.vehicle_type, eta_utc: eta, registration: vehicle.registration! } };
  }
  const registration = query.get('reg');
  if (!registration) return { state: 'none' };
  const type = query.get('type');
  const kind = query.get('kind') === 'helicopter' ? 'helicopter' : 'aircraft';
  return { state: 'ready', request: { destination_icao: icao, vehicle_type: kind, eta_utc: eta, registration, ...(type ? { aircraft_type: type } : {}) } };
}

interface Loaded {
  bundle: LandingBundle;
  airport: Airport | null;
  metar: MetarReport | null;
  /** When the answer came: NOTAMs in force from then on count as active. */
  at: number;
}

async function loadBriefing(request: LandingRequest, signal: AbortSignal): Promise<Loaded> {
  const bundle = await data('POST /v3/intelligence/landing', { body: request }, { signal });
  // The plan and the METAR's meaning are extras: the briefing stands without them.
  const [airport, metar] = await Promise.allSettled([
    airportDetail(bundle.destination.icao),
    bundle.weather.metar ? data('GET /v3/aviation/airports/{icao}/metar', { path: { icao: bundle.destination.icao } }, { signal }) : Promise.resolve(null),
  ]);
  return {
    bundle,
    airport: airport.status === 'fulfilled' ? airport.value : null,
    metar: metar.status === 'fulfilled' ? metar.value : null,
    at: Date.now(),
  };
}

export default function Landing({ query }: PageProps) {
  const membership = useMembership();
  const orgId = membership?.org_id ?? null;

  const fleet = useAsync(async (signal) => {
    if (!orgId) return [] as Vehicle[];
    const page = await api('GET /v3/organisations/{orgId}/fleet/vehicles', { path: { orgId }, query: { limit: 100 } }, { signal });
    return page.data.filter((v) => v.vehicle_type !== 'vessel' && v.registration !== null);
  }, [orgId]);
  const aircraft = fleet.data ?? [];
  const asked = askedFor(query, fleet.data);
  const request = asked.state === 'ready' ? asked.request : null;
  usePageTitle(request ? `Landing briefing ${request.destination_icao.toUpperCase()}` : 'Landing briefing');

  // The form starts from the address, so a reload or a shared link shows what was asked.
  const [airport, setAirport] = useState<ChosenAirport | null>(query.get('icao') ? { icao: query.get('icao')!.toUpperCase(), name: null } : null);
  const [vehicleId, setVehicleId] = useState(query.get('vehicle') ?? '');
  const [registration, setRegistration] = useState(query.get('reg') ?? '');
  const [aircraftType, setAircraftType] = useState(query.get('type') ?? '');
  const [kind, setKind] = useState<AircraftKind>(query.get('kind') === 'helicopter' ? 'helicopter' : 'aircraft');
  const [eta, setEta] = useState(() => {
    const given = query.get('eta');
    return given && !Number.isNaN(Date.parse(given)) ? utcInputValue(Date.parse(given)) : defaultEta();
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  /** Set by the form: the briefing it asked for takes the focus when it comes (and scrolls into view). */
  const asking = useRef(false);

  // Once the fleet is known, the select shows the vehicle the address names, else the first one.
  useEffect(() => {
    if (fleet.data === undefined) return;
    const named = aircraft.find((v) => v.id === vehicleId);
    if (named) pickVehicle(named.id);
    else if (!query.get('reg') && aircraft[0]) pickVehicle(aircraft[0].id);
    else setVehicleId(OTHER);
  }, [fleet.data]);

  function pickVehicle(id: string) {
    setVehicleId(id);
    const vehicle = aircraft.find((v) => v.id === id);
    if (vehicle) {
      setRegistration(vehicle.registration!);
      setAircraftType('');
      setKind(vehicle.vehicle_type as AircraftKind);
    } else {
      setRegistration('');
    }
  }

  function submit(event: Event) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    const etaIso = utcFromInput(eta);
    if (!airport) problems.airport = 'Choose the destination from the list, or type its ICAO code.';
    if (vehicleId === OTHER && !registration.trim()) problems.registration = 'Type the registration, e.g. G-EUPT.';
    if (!vehicleId) problems.registration = 'Choose an aircraft of your fleet, or another aircraft.';
    if (!etaIso) problems.eta = 'Enter the ETA as a date and a time (UTC).';
    setErrors(problems);
    if (Object.keys(problems).length > 0 || !airport || !etaIso) return;
    const next = new URLSearchParams({ icao: airport.icao, eta: etaIso });
    if (vehicleId === OTHER) {
      next.set('reg', registration.trim());
      next.set('kind', kind);
      if (aircraftType.trim()) next.set('type', aircraftType.trim().toUpperCase());
    } else {
      next.set('vehicle', vehicleId);
    }
    asking.current = true;
    navigate(`/landing?${next}`);
    // The same request again: no new address, so read it again.
    if (`?${next}` === window.location.search) briefing.reload();
  }

  const briefing = useAsync<Loaded | null>(
    (signal) => (request ? loadBriefing(request, signal) : Promise.resolve(null)),
    [request?.destination_icao, request?.registration, request?.vehicle_type, request?.eta_utc, request?.aircraft_type],
  );
  useEffect(() => {
    if (!asking.current || briefing.loading) return;
    asking.current = false;
    document.getElementById(briefing.error ? 'briefing-error' : 'briefing-title')?.focus();
  }, [briefing.loading, briefing.data, briefing.error]);
  const apiError = briefing.error;
  // Field errors of the landing request, shown under the input they concern.
  const code = errorCode(apiError);
  const airportError = errors.airport ?? (code === 'airport_not_found' ? 'No airport has this code. Pick one from the list.' : null);
  const etaError = errors.eta ?? (code === 'eta_out_of_range' ? 'The ETA may be at most 15 minutes past and at most 366 days ahead.' : null);

  const fleetOptions = [
    ...aircraft.map((v) => ({ value: v.id, label: `${vehicleName(v)} · ${v.icao_type ?? 'type unknown'}${v.vehicle_type === 'helicopter' ? ' (helicopter)' : ''}` })),
    { value: OTHER, label: 'Another aircraft (type its registration)' },
  ];

  return (
    <div class="landing-page">
      <PageHeader title="Landing briefing">
        <p>Airport status, weather, the runway and approach for the wind, slots, NOTAMs and a safety score for one arrival.</p>
      </PageHeader>

      <form class="card landing-form" onSubmit={submit} noValidate aria-label="Briefing request">
        <AirportSearch value={airport} onChoose={setAirport} error={airportError} />
        <div class="landing-form-vehicle">
          {fleet.loading && fleet.data === undefined ? <Loading inline label="Loading your fleet…" /> : (
            <SelectField label="Aircraft" value={vehicleId} onValue={pickVehicle} options={fleetOptions}
              hint={aircraft.length ? 'From your fleet: its own crosswind limit and runway length are used.' : <>Your fleet has no aircraft yet. <a href="/fleet/new">Add one</a> to brief with its own limits.</>} />
          )}
          {fleet.error ? <ErrorMessage error={fleet.error} title="Your fleet could not be loaded" /> : null}
          {vehicleId === OTHER && (
            <div class="landing-form-other">
              <TextField label="Registration" value={registration} onValue={setRegistration} placeholder="G-EUPT" autoComplete="off" error={errors.registration} />
              <TextField label="ICAO type" optional value={aircraftType} onValue={setAircraftType} placeholder="A320" autoComplete="off"
                hint="Without it, conservative default figures apply." />
              <SelectField label="Category" value={kind} onValue={(value) => setKind(value as AircraftKind)}
                options={[{ value: 'aircraft', label: 'Aeroplane' }, { value: 'helicopter', label: 'Helicopter' }]} />
            </div>
          )}
          {vehicleId !== OTHER && errors.registration && <p class="field-error">{errors.registration}</p>}
        </div>
        <TextField label="ETA (UTC)" type="datetime-local" value={eta} onValue={setEta} error={etaError} step={60}
          hint="Date and time of arrival in UTC, up to 366 days ahead." />
        <div class="button-row">
          <Button type="submit" variant="primary" busy={briefing.loading && request !== null}>Get briefing</Button>
          {request && briefing.data && <Button onClick={() => briefing.reload()}>Refresh</Button>}
        </div>
      </form>

      {asked.state === 'unknown_vehicle' && (
        <Alert tone="warning" title="Vehicle not in your fleet">The vehicle this link names is not in the fleet of {membership?.name}: choose another above.</Alert>
      )}
      {asked.state === 'none' && (
        <Alert tone="info" title="Choose an arrival">
          Pick the destination, the aircraft and the ETA above; the briefing appears here.
        </Alert>
      )}
      {request && briefing.loading && !briefing.data && <Loading label={`Briefing ${request.destination_icao.toUpperCase()}…`} />}
      {request && apiError ? <div id="briefing-error" tabIndex={-1}><ErrorMessage error={apiError} title="No briefing" /></div> : null}
      {request && briefing.data && !apiError && (
        <Briefing bundle={briefing.data.bundle} airport={briefing.data.airport} metar={briefing.data.metar} nowMs={briefing.data.at} />
      )}
    </div>
  );
}
