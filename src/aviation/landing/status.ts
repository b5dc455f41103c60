// Destination status, by the rules in RULES.md, first match wins:
//
// UNKNOWN      the airport is not in the reference data.
// CLOSED       a NOTAM closes the aerodrome; the data lists the airport as closed; every runway
//              is closed (in the data or by NOTAM).
// UNKNOWN      the data lists no runway, so nothing can be decided.
// LIMITED      a runway closed by NOTAM (or a closure that names no runway); an ILS, localizer,
//              glide path, runway or approach lighting out of service; an aerodrome or runway
//              restriction (hours, users, length, weight); and, when a runway choice is given: no
//              end within the aircraft's wind limits, or the chosen end lacks a usable ILS or
//              lighting that another end has, or is shorter than the aircraft's minimum.
// OPERATIONAL  otherwise.
//
// Runways closed in the data alone do not make an airport LIMITED: that is its normal state.
// Runway lighting matters only in the dark: with the light at the ETA given as day, an unlit
// chosen runway or a runway lighting outage limits nothing (the outage is told in the reasons).

import { airportConditions, ilsUsable, isClosed, lightingUsable } from './conditions.ts';
import type { RunwayChoice } from './runway.ts';
import type { LightPeriod } from './daylight.ts';
import type { ActiveNotam, LandingAirport } from './types.ts';

export type AirportStatus = 'OPERATIONAL' | 'LIMITED' | 'CLOSED' | 'UNKNOWN';

export interface AirportStatusResult {
  status: AirportStatus;
  reasons: string[];
}

export interface AirportStatusInput {
  /** null when the airport is not in the reference data. */
  airport: Pick<LandingAirport, 'type' | 'runways'> | null;
  notams?: readonly ActiveNotam[];
  /** The runway choice for the aircraft, when one was made. */
  choice?: RunwayChoice;
  /** The light at the ETA (daylight.ts); unknown counts as dark. */
  light?: LightPeriod;
}

export function airportStatus(input: AirportStatusInput): AirportStatusResult {
  const { airport, notams = [], choice } = input;
  const byDay = input.light === 'day';
  if (airport === null) return { status: 'UNKNOWN', reasons: ['The airport is not in the reference data.'] };
  const conditions = airportConditions(airport.runways, notams);

  const closed: string[] = [];
  if (conditions.aerodrome_closed_by.length > 0) closed.push(`Aerodrome closed by NOTAM ${conditions.aerodrome_closed_by.join(', ')}.`);
  if (airport.type === 'closed') closed.push('The reference data lists the airport as closed.');
  if (conditions.ends.length > 0 && conditions.ends.every(isClosed)) closed.push('Every runway is closed.');
  if (closed.length > 0) return { status: 'CLOSED', reasons: closed };
  if (conditions.ends.length === 0) return { status: 'UNKNOWN', reasons: ['The reference data lists no runway for this airport.'] };

  const limited: string[] = [];
  const byNotam = (pick: (item: (typeof conditions.ends)[number]) => string[]): Map<string, string[]> => {
    const found = new Map<string, string[]>();
    for (const item of conditions.ends) {
      for (const notam of pick(item)) found.set(notam, [...(found.get(notam) ?? []), item.designator]);
    }
    return found;
  };
  const report = (what: string, found: Map<string, string[]>): void => {
    for (const [notam, ends] of found) limited.push(`${what} ${ends.join(', ')} (NOTAM ${notam}).`);
  };
  report('Runway closed:', byNotam((item) => item.closed_by));
  for (const notam of conditions.unplaced_closures) limited.push(`A runway is closed; NOTAM ${notam} does not say which.`);
  report('ILS out of service:', byNotam((item) => item.ils_out_by));
  const notes: string[] = [];
  if (byDay) {
    for (const [notam, ends] of byNotam((item) => item.runway_lighting_out_by)) notes.push(`Runway lighting out of service: ${ends.join(', ')} (NOTAM ${notam}), not needed by day at the ETA.`);
  } else report('Runway lighting out of service:', byNotam((item) => item.runway_lighting_out_by));
  report('Approach lighting out of service:', byNotam((item) => item.approach_lighting_out_by));
  for (const restriction of conditions.restrictions) {
    limited.push(`Restriction ${restriction.q_code} (NOTAM ${restriction.notam}).`);
  }

  if (choice !== undefined) {
    const chosen = choice.runway;
    const open = conditions.ends.filter((item) => !isClosed(item));
    if (chosen === null) limited.push(choice.reason);
    else {
      if (!chosen.ils_usable && open.some(ilsUsable)) limited.push(`The chosen runway ${chosen.designator} has no usable ILS; another runway has one.`);
      if (!byDay && !chosen.lighting_usable && open.some(lightingUsable)) limited.push(`The chosen runway ${chosen.designator} has no usable lighting; another runway has.`);
      if (chosen.long_enough === false) limited.push(`The chosen runway ${chosen.designator} is shorter than the aircraft's minimum runway length.`);
    }
  }
  if (limited.length > 0) return { status: 'LIMITED', reasons: [...limited, ...notes] };
  if (notes.length > 0) return { status: 'OPERATIONAL', reasons: ['Open, with no runway closure or restriction in force.', ...notes] };
  return { status: 'OPERATIONAL', reasons: ['Open, with no runway closure, equipment outage or restriction in force.'] };
}
