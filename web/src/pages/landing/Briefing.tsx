// One landing briefing: the bundle of `/v3/intelligence/landing`, the airport's runways for the
// plan and the decoded METAR of `/v3/aviation/airports/{icao}/metar`, laid out for reading top to
// bottom: headline (with what the weather at the ETA rests on), runway and wind, weather, approach,
// score, alternates, frequencies and navaids, NOTAMs, freshness, disclaimer.
import type { ComponentChildren } from 'preact';
import { formatNumber, formatUtc } from '../../app/format.ts';
import { Alert, Section, StatusBadge, type Tone } from '../../app/ui/basics.tsx';
import { BASES, basisNote, periodWords } from './basis.ts';
import { factorName, ilsCategoryWords, ilsWords, orderedFactors, scoreTone, slotWords, STATUS } from './briefing.ts';
import { age } from './format.ts';
import { anySimulated, freshnessRows, type Currency, type FreshnessRow, type Origin } from './freshness.ts';
import { conditionWords, describeMetar, FLIGHT_CATEGORIES, WIND_SHEAR_RISKS } from './metar.ts';
import { briefingNotams } from './notams.ts';
import { AirportPlanSvg, ComponentTriangleSvg } from './RunwayDiagram.tsx';
import { componentTriangle, windLabel } from './runway-diagram.ts';
import type { Airport, LandingBundle, MetarReport } from './types.ts';

const kt = (n: number | null) => (n === null ? '–' : `${Math.abs(n)} kt`);

function Tile({ label, children, tone, testId }: { label: string; children: ComponentChildren; tone?: Tone; testId?: string }) {
  return (
    <div class={`tile${tone ? ` tile-${tone}` : ''}`} data-testid={testId}>
      <div class="tile-label">{label}</div>
      <div class="tile-value">{children}</div>
    </div>
  );
}

function Headline({ bundle }: { bundle: LandingBundle }) {
  const status = STATUS[bundle.destination.status];
  const category = bundle.weather.flight_category;
  const shear = bundle.weather.wind_shear_risk;
  const basis = BASES[bundle.weather.basis];
  return (
    <div class="tiles" data-testid="briefing-headline">
      <Tile label="Destination" tone={status.tone} testId="status">
        <StatusBadge tone={status.tone}>{status.words}</StatusBadge>
        {bundle.destination.status_reasons.length > 0 && <ul class="tile-notes">{bundle.destination.status_reasons.map((r) => <li key={r}>{r}</li>)}</ul>}
      </Tile>
      <Tile label="Weather at the ETA" tone={bundle.weather.basis === 'none' ? 'warn' : undefined} testId="weather-basis">
        <StatusBadge tone={basis.tone}>{basis.words}</StatusBadge>
        <div class="basis-summary" data-basis={bundle.weather.basis}>{bundle.weather.basis_summary}</div>
      </Tile>
      <Tile label="Safety score" tone={scoreTone(bundle.safety_score)} testId="safety-score">
        <span class="score">{bundle.safety_score}</span><span class="muted"> / 100</span>
      </Tile>
      <Tile label="Recommended approach" testId="approach">
        <strong>{bundle.recommended_approach}</strong>
        {ilsCategoryWords(bundle.approach) && <div class="tile-notes" data-testid="approach-ils-category">{ilsCategoryWords(bundle.approach)}</div>}
        {bundle.approach.indicative && <div class="tile-notes">indicative</div>}
        {bundle.approach.below_minima && <div><StatusBadge tone="bad">below minima</StatusBadge></div>}
      </Tile>
      <Tile label="Flight category" testId="flight-category">
        {category
          ? <span class="flight-category" style={{ background: FLIGHT_CATEGORIES[category].colour }} title={FLIGHT_CATEGORIES[category].meaning}>{category}</span>
          : <span class="muted">unknown</span>}
        <div class="tile-notes">{conditionWords(bundle.weather.conditions)}</div>
      </Tile>
      <Tile label="Wind shear risk" tone={shear ? WIND_SHEAR_RISKS[shear].tone : undefined} testId="wind-shear">
        {shear ? <StatusBadge tone={WIND_SHEAR_RISKS[shear].tone}>{shear}</StatusBadge> : <span class="muted">unknown</span>}
      </Tile>
      <Tile label="Arrival slot" tone={bundle.slot_available ? 'ok' : 'bad'} testId="slot">
        <StatusBadge tone={bundle.slot_available ? 'ok' : 'bad'}>{bundle.slot_available ? 'available' : 'full'}</StatusBadge>
        <div class="tile-notes">{bundle.slot.remaining} of {bundle.slot.capacity} left</div>
      </Tile>
    </div>
  );
}

function RunwayAndWind({ bundle, airport }: { bundle: LandingBundle; airport: Airport | null }) {
  const wind = bundle.weather.wind;
  const chosen = bundle.runway;
  const ils = chosen && ilsWords(chosen);
  const runways = airport?.runways ?? [];
  const limit = bundle.aircraft.crosswind_limit_kt;
  const windText = wind ? `${windLabel(wind)}${bundle.weather.basis === 'forecast' ? ' (forecast)' : ''}` : bundle.weather.basis === 'none' ? 'unknown at the ETA' : 'not reported';
  const planLabel = chosen
    ? `Airport plan, north up: runway ${chosen.designator} recommended, true heading ${chosen.true_heading_deg ?? 'unknown'}°; wind ${windText}.`
    : `Airport plan, north up: no runway recommended; wind ${windText}.`;
  const triangle = chosen ? componentTriangle(chosen, wind, limit) : null;
  const crossSide = chosen?.crosswind_kt ? (chosen.crosswind_kt > 0 ? ' from the right' : ' from the left') : '';
  return (
    <Section title="Runway and wind" id="runway">
      <div class="runway-figures">
        <figure class="runway-figure">
          <AirportPlanSvg runways={runways} chosen={chosen} wind={wind} label={planLabel} />
          <figcaption>North up, runways at their true headings{airport ? '' : ' (runway data unavailable: the recommended runway alone)'}.</figcaption>
        </figure>
        {chosen && triangle && (
          <figure class="runway-figure">
            <ComponentTriangleSvg triangle={triangle}
              label={`Runway ${chosen.designator} seen on approach: headwind ${kt(chosen.headwind_kt)}, crosswind ${kt(chosen.crosswind_kt)}${crossSide}.`} />
            <figcaption>
              Runway {chosen.designator} seen on approach: the wind split into its components.
              {triangle.wind && triangle.notes.map((note) => <span key={note} class="figure-note">{note}</span>)}
            </figcaption>
          </figure>
        )}
      </div>
      {chosen ? (
        <dl class="facts" data-testid="runway-facts">
          <dt>Runway</dt><dd data-field="designator">{chosen.designator}</dd>
          <dt>True heading</dt><dd data-field="true_heading_deg">{chosen.true_heading_deg === null ? '–' : `${chosen.true_heading_deg}°`}</dd>
          <dt>Wind</dt><dd>{windText}</dd>
          <dt>{chosen.headwind_kt !== null && chosen.headwind_kt < 0 ? 'Tailwind' : 'Headwind'}</dt><dd data-field="headwind_kt" data-value={chosen.headwind_kt ?? ''}>{kt(chosen.headwind_kt)}</dd>
          <dt>Crosswind</dt><dd data-field="crosswind_kt" data-value={chosen.crosswind_kt ?? ''}>{kt(chosen.crosswind_kt)}{crossSide}</dd>
          <dt>With gusts</dt><dd>crosswind up to {kt(chosen.max_crosswind_kt)}, tailwind up to {kt(chosen.max_tailwind_kt)}</dd>
          <dt>Landing length</dt><dd>{chosen.landing_length_m === null ? 'unknown' : `${formatNumber(chosen.landing_length_m)} m`}</dd>
          <dt>ILS</dt><dd data-field="ils" data-value={chosen.ils}>{ils && <StatusBadge tone={ils.tone}>{ils.words}</StatusBadge>}</dd>
          <dt>Lighting</dt><dd>{chosen.lighting_usable ? 'usable' : 'no usable lighting'}</dd>
        </dl>
      ) : <Alert tone="warning" title="No runway can be recommended">{bundle.runway_choice.reason}</Alert>}
      <details class="reasoning">
        <summary>Why this runway</summary>
        <ol>{bundle.runway_choice.reasoning.map((line) => <li key={line}>{line}</li>)}</ol>
      </details>
    </Section>
  );
}

function WeatherAtEta({ weather, eta }: { weather: LandingBundle['weather']; eta: string }) {
  const tone = BASES[weather.basis].tone;
  return (
    <div class={`basis basis-${weather.basis}`} data-testid="basis">
      <p><StatusBadge tone={tone}>{BASES[weather.basis].words}</StatusBadge> <strong data-testid="basis-summary">{weather.basis_summary}</strong></p>
      <p class="small">{basisNote(weather)}</p>
      {weather.periods.length > 0 && (
        <ul class="basis-periods" data-testid="basis-periods">
          {weather.periods.map((period) => (
            <li key={`${period.kind}-${period.from}-${period.raw}`} data-kind={period.kind} data-role={period.role}>
              <span class="small">{periodWords(period, eta)}</span>
              <span class="raw-report">{period.raw}</span>
            </li>
          ))}
        </ul>
      )}
      {weather.basis !== 'none' && (
        <dl class="facts" data-testid="weather-at-eta">
          <dt>Conditions</dt><dd>{weather.all_conditions.map(conditionWords).join(', ') || 'unknown'}</dd>
          <dt>Visibility</dt><dd>{weather.visibility_nm === null ? 'unknown' : `${weather.visibility_nm} nm${weather.visibility_is_lower_bound ? ' or more' : ''}`}</dd>
          <dt>Ceiling</dt><dd>{weather.ceiling_ft === null ? 'none known' : `${formatNumber(weather.ceiling_ft)} ft`}</dd>
          <dt>Wind</dt><dd>{weather.wind ? windLabel(weather.wind) : 'unknown'}</dd>
        </dl>
      )}
      <details class="reasoning">
        <summary>Why this basis</summary>
        <ol>{weather.basis_reasoning.map((line) => <li key={line}>{line}</li>)}</ol>
      </details>
    </div>
  );
}

function Weather({ bundle, metar }: { bundle: LandingBundle; metar: MetarReport | null }) {
  const decoded = metar?.decoded && metar.raw === bundle.weather.metar ? metar.decoded : null;
  const reasons = bundle.weather.wind_shear_reasons;
  const shear = bundle.weather.wind_shear_risk;
  const observed = bundle.weather.basis === 'observation';
  return (
    <Section title="Weather" id="weather">
      <WeatherAtEta weather={bundle.weather} eta={bundle.eta_utc} />
      {bundle.weather.flight_category && (
        <p class="small"><span class="flight-category" style={{ background: FLIGHT_CATEGORIES[bundle.weather.flight_category].colour }}>{bundle.weather.flight_category}</span>{' '}
          {FLIGHT_CATEGORIES[bundle.weather.flight_category].meaning}{observed ? '' : ' (forecast)'}.</p>
      )}
      {shear && (
        <div class="small">
          <p><strong>Wind shear risk {shear}:</strong> {WIND_SHEAR_RISKS[shear].meaning}</p>
          {reasons.length > 0 && <ul>{reasons.map((r) => <li key={`${r.rule}-${r.detail}`}>{r.detail}</li>)}</ul>}
        </div>
      )}
      {bundle.weather.metar ? (
        <>
          <h3 class="weather-report-title">Latest METAR{observed ? '' : ': for reference, not the weather at the ETA'}</h3>
          <p class="raw-report" data-testid="raw-metar"><span class="visually-hidden">Raw METAR: </span>{bundle.weather.metar}</p>
          {decoded ? (
            <dl class="facts" data-testid="metar-decoded">
              {describeMetar(decoded).map((line, index) => [<dt key={`t${index}`}>{line.term}</dt>, <dd key={`d${index}`}>{line.text}</dd>])}
            </dl>
          ) : (
            <dl class="facts">
              <dt>Observed</dt><dd>{formatUtc(bundle.weather.observed_at)}</dd>
            </dl>
          )}
          {metar?.decode_error && <p class="muted small">Not fully decoded: {metar.decode_error.message}</p>}
        </>
      ) : <Alert tone="warning" title="No METAR">LAMIS holds no METAR for this airport.</Alert>}
      {bundle.weather.taf && (
        <details class="reasoning" open={bundle.weather.basis === 'forecast'}>
          <summary>TAF</summary>
          <p class="raw-report" data-testid="raw-taf">{bundle.weather.taf}</p>
        </details>
      )}
    </Section>
  );
}

function Approach({ bundle }: { bundle: LandingBundle }) {
  const minima = bundle.approach.minima;
  return (
    <Section title="Approach" id="approach-detail">
      <p><strong>{bundle.recommended_approach}</strong>{bundle.approach.indicative ? ' (indicative: check the published procedure)' : ''}</p>
      <p>{bundle.approach.reason}</p>
      {bundle.approach.below_minima && <Alert tone="error" title="Below minima">The {bundle.weather.basis === 'forecast' ? 'forecast' : 'reported'} weather at the ETA is below the typical minima of this approach.</Alert>}
      {minima && (
        <p class="small">Typical {minima.label} minima used: decision height {minima.decision_height_ft} ft, RVR {formatNumber(minima.rvr_m)} m
          (or visibility {formatNumber(minima.visibility_m)} m without an RVR).</p>
      )}
      <details class="reasoning">
        <summary>Reasoning</summary>
        <ol>{bundle.approach.reasoning.map((line) => <li key={line}>{line}</li>)}</ol>
      </details>
      <p class="small muted">{slotWords(bundle.slot)}.</p>
    </Section>
  );
}

function Safety({ bundle }: { bundle: LandingBundle }) {
  const tone = scoreTone(bundle.safety_score);
  return (
    <Section title="Safety score" id="safety">
      <div class="score-bar" role="img" aria-label={`Safety score ${bundle.safety_score} of 100`}>
        <div class={`score-fill score-${tone}`} style={{ width: `${bundle.safety_score}%` }} />
      </div>
      <p class="small muted">100, plus the points of each factor below.</p>
      <ul class="factors" data-testid="safety-factors">
        {orderedFactors(bundle.safety_factors).map((factor) => (
          <li key={factor.factor} class={factor.points < 0 ? 'is-costly' : undefined}>
            <span class="factor-points">{factor.points === 0 ? '0' : `−${Math.abs(factor.points)}`}</span>
            <span class="factor-name">{factorName(factor.factor)}</span>
            <span class="factor-detail">{factor.detail}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Notams({ bundle, nowMs }: { bundle: LandingBundle; nowMs: number }) {
  const notams = briefingNotams(bundle.notams, nowMs);
  return (
    <Section title={`NOTAMs in force at the ETA (${notams.length})`} id="notams">
      {notams.length === 0 ? <p class="muted">No NOTAM is in force at this airport at the ETA.</p> : (
        <ol class="notams" data-testid="notams">
          {notams.map((n) => (
            <li key={n.id} class={`notam notam-${n.state}`} data-notam={n.id} data-state={n.state}>
              <div class="notam-head">
                <span class="notam-id">{n.id}</span>
                <StatusBadge tone={n.state === 'active' ? 'warn' : 'info'}>{n.state === 'active' ? 'in force now' : 'starts before the ETA'}</StatusBadge>
                {n.source === 'simulated' && <StatusBadge tone="neutral">simulated</StatusBadge>}
                <strong class="notam-headline">{n.headline}</strong>
              </div>
              {n.effects.length > 0 && <p class="notam-effects">{n.effects.join('; ')}</p>}
              <p class="notam-plain">{n.plain}</p>
              <p class="small muted">{n.validity}{n.schedule ? `; active ${n.schedule}` : ''}</p>
              <details>
                <summary>As issued</summary>
                <p class="raw-report">{n.text}</p>
              </details>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}

const SUITABILITY: Record<LandingBundle['alternates']['airports'][number]['suitability'], { tone: Tone; words: string }> = {
  suitable: { tone: 'ok', words: 'suitable' },
  limited: { tone: 'warn', words: 'limited' },
  marginal: { tone: 'bad', words: 'marginal' },
};

function Alternates({ bundle }: { bundle: LandingBundle }) {
  const { airports, radius_nm: radius, assessed_for: at, reasoning } = bundle.alternates;
  return (
    <Section title={`Alternates (${airports.length})`} id="alternates">
      <p class="small muted">Within {radius} nm, fitting the aircraft, open and assessed at {formatUtc(at)} (the ETA + 30 min); best suited first, then nearest.</p>
      {airports.length === 0 ? <p class="muted">No alternate found within {radius} nm.</p> : (
        <ol class="alternates" data-testid="alternates">
          {airports.map((alternate) => (
            <li key={alternate.icao} class="alternate" data-icao={alternate.icao} data-suitability={alternate.suitability}>
              <div class="alternate-head">
                <strong>{alternate.icao}</strong> <span>{alternate.name}</span>
                <StatusBadge tone={SUITABILITY[alternate.suitability].tone}>{SUITABILITY[alternate.suitability].words}</StatusBadge>
              </div>
              <p class="small">
                {formatNumber(alternate.distance_nm)} nm, bearing {String(alternate.bearing_deg).padStart(3, '0')}° true ·{' '}
                {alternate.flight_category
                  ? <span class="flight-category" style={{ background: FLIGHT_CATEGORIES[alternate.flight_category].colour }}>{alternate.flight_category}</span>
                  : <span class="muted">weather unknown</span>}
                {' '}· {alternate.recommended_approach ?? 'no runway within limits'}
              </p>
              <ul class="small muted alternate-reasons">{alternate.reasons.map((reason) => <li key={reason}>{reason}</li>)}</ul>
            </li>
          ))}
        </ol>
      )}
      <details class="reasoning">
        <summary>How they were found</summary>
        <ol>{reasoning.map((line) => <li key={line}>{line}</li>)}</ol>
      </details>
    </Section>
  );
}

/** The types a crew tunes on arrival first, in that order; the rest follow by type. */
const ARRIVAL_FREQUENCIES = ['ATIS', 'APP', 'ARR', 'DIR', 'TWR', 'GND'];

function Radio({ airport }: { airport: Airport }) {
  const rank = (type: string) => {
    const index = ARRIVAL_FREQUENCIES.indexOf(type.toUpperCase());
    return index === -1 ? ARRIVAL_FREQUENCIES.length : index;
  };
  const frequencies = [...airport.frequencies].sort((a, b) => rank(a.type) - rank(b.type) || a.type.localeCompare(b.type));
  return (
    <Section title="Frequencies and navaids" id="radio">
      {frequencies.length === 0 ? <p class="muted">OurAirports lists no frequency for this airport.</p> : (
        <ul class="frequencies" data-testid="frequencies">
          {frequencies.map((frequency) => (
            <li key={`${frequency.type}-${frequency.frequency_mhz}`}>
              <strong>{frequency.type}</strong> {frequency.frequency_mhz.toFixed(3)} MHz
              {frequency.description && <span class="small muted"> · {frequency.description}</span>}
            </li>
          ))}
        </ul>
      )}
      {airport.navaids.length > 0 && (
        <ul class="small navaids" data-testid="navaids">
          {airport.navaids.map((navaid) => <li key={`${navaid.type}-${navaid.ident}`}>{navaid.type} {navaid.ident} {navaid.name}</li>)}
        </ul>
      )}
      <p class="small muted">From OurAirports: check the current AIP before use.</p>
    </Section>
  );
}

const ORIGIN_TONE: Record<Origin, Tone> = { live: 'ok', simulated: 'warn', operator: 'info', imported: 'neutral', none: 'neutral' };
const CURRENCY_TONE: Record<Currency, Tone> = { live: 'ok', recent: 'info', stale: 'bad', missing: 'bad', failing: 'bad', reference: 'neutral' };
const CURRENCY_WORDS: Record<Currency, string> = { live: 'live', recent: 'recent', stale: 'stale', missing: 'missing', failing: 'failing', reference: 'reference data' };

function Freshness({ bundle, nowMs }: { bundle: LandingBundle; nowMs: number }) {
  const rows: FreshnessRow[] = freshnessRows(bundle, nowMs);
  return (
    <Section title="Sources and freshness" id="freshness">
      <p class="small">The oldest input is <strong data-testid="freshness-sec">{age(bundle.intelligence_freshness_sec)}</strong> old.</p>
      <ul class="freshness" data-testid="freshness">
        {rows.map((row, index) => (
          <li key={`${row.input}-${index}`} data-input={row.input} data-origin={row.origin} data-currency={row.currency}>
            <span class="freshness-input">{row.input}</span>
            <span class="freshness-badges">
              {row.origin !== 'none' && <StatusBadge tone={ORIGIN_TONE[row.origin]}>{row.origin}</StatusBadge>}
              <StatusBadge tone={CURRENCY_TONE[row.currency]}>{CURRENCY_WORDS[row.currency]}</StatusBadge>
              {row.age && <span class="small muted">{row.age}</span>}
            </span>
            <span class="freshness-detail small muted">{row.detail}</span>
          </li>
        ))}
      </ul>
    </Section>
  );
}

export function Briefing({ bundle, airport, metar, nowMs }: { bundle: LandingBundle; airport: Airport | null; metar: MetarReport | null; nowMs: number }) {
  const simulated = anySimulated(freshnessRows(bundle, nowMs));
  const profile = bundle.aircraft;
  const profileWords = profile.profile_source === 'fleet' ? 'your fleet\'s profile' : profile.profile_source === 'aircraft_type' ? 'the type\'s figures' : 'conservative default figures';
  return (
    <article class="briefing" aria-labelledby="briefing-title" data-testid="briefing">
      <div class="briefing-title">
        <h2 id="briefing-title" tabIndex={-1}>{bundle.destination.icao} · {bundle.destination.name}</h2>
        <p class="muted">
          ETA {formatUtc(bundle.eta_utc)} · {profile.registration}{profile.designator ? ` (${profile.designator})` : ''}, with {profileWords}
        </p>
      </div>
      {simulated && (
        <Alert tone="warning" title="Simulated data">
          Some inputs of this briefing come from LAMIS's built-in simulators, not from live feeds: it is a demonstration, not the real situation.
          See “Sources and freshness” below.
        </Alert>
      )}
      <Headline bundle={bundle} />
      <div class="briefing-grid">
        <RunwayAndWind bundle={bundle} airport={airport} />
        <Weather bundle={bundle} metar={metar} />
        <Approach bundle={bundle} />
        <Safety bundle={bundle} />
      </div>
      <Alternates bundle={bundle} />
      {airport && <Radio airport={airport} />}
      <Notams bundle={bundle} nowMs={nowMs} />
      <Freshness bundle={bundle} nowMs={nowMs} />
      <Alert tone="info" title="Not for sole reliance">{bundle.disclaimer}</Alert>
    </article>
  );
}
