// Prediction rules about each fleet vessel bound for a port LAMIS can name from its AIS destination
// (subject `{type: "vessel", id: vehicle_id, vehicle_id, mmsi}`), on the weather-aware arrival
// prediction there:
//
// - `vessel.eta_delayed`: the predicted ETA is later than the ETA the vessel reports in its AIS
//   voyage data by more than `eta_delay_minutes_above` (the vehicle's notification settings, else
//   its organisation's). The reported ETA is what the master announced to the port, so a prediction
//   past it is the delay the port and the operator care about, and it needs no memory of earlier
//   predictions: a restart judges the same way. Warning; clears once the delay is back under the
//   threshold by the dead band (DEAD_BANDS); no reported ETA or no prediction leaves it as it is.
// - `port.weather_hold` about the vessel: with `weather_hold` set, the destination's forecast holds
//   within the forecast horizon for the organisation's limits. Warning; clears when no hold remains.
// - `vessel.tide_restricted`: at the predicted ETA the vessel's AIS draught has no tidal window at the
//   destination (its channel depth and the nearest tide station's prediction); `data.next_window` says
//   when water comes. Warning; clears when the ETA falls in a window. No draught, channel depth or
//   tide station leaves it as it is.
//
// A vessel whose destination names no port (blank, "FOR ORDERS", unknown) has none of these events:
// they clear. A vessel LAMIS has not heard from leaves them as they are.
import type { FleetStore, FleetVessel, Thresholds } from '../fleet/index.ts';
import type { EventStore, EventSubject } from '../events/index.ts';
import type { MaritimeWatch } from '../maritime/index.ts';
import { applyOutcome, type Outcome } from './outcome.ts';
import { holdsOutcome } from './watch-rules.ts';

/** Tidal windows are looked for this long after the predicted ETA, so `next_window` can say when water comes. */
const TIDE_LOOKAHEAD_MS = 12 * 3_600_000;

/** What `vessel.eta_delayed` finds from the predicted and reported ETAs. */
export function etaDelayOutcome(input: {
  name: string; portName: string; predictedEta: string | null; reportedEta: string | null; thresholds: { own: Thresholds; effective: Thresholds }; distanceNm: number | null;
}): Outcome {
  const threshold = input.thresholds.effective.eta_delay_minutes_above;
  if (threshold === undefined) return { status: 'off' };
  if (input.predictedEta === null || input.reportedEta === null) return { status: 'unknown' };
  const delay = Math.round((Date.parse(input.predictedEta) - Date.parse(input.reportedEta)) / 60_000);
  return {
    status: 'measured', value: delay, threshold,
    event: {
      severity: 'warning',
      summary: `${input.name} is predicted at ${input.portName} at ${input.predictedEta}, ${delay} min after its reported ETA, beyond the ${threshold} min threshold.`,
      data: {
        value: delay, threshold, threshold_source: input.thresholds.own.eta_delay_minutes_above !== undefined ? 'vehicle' : 'organisation',
        predicted_eta: input.predictedEta, reported_eta: input.reportedEta, distance_nm: input.distanceNm,
      },
    },
  };
}

/** What `vessel.tide_restricted` finds from the windows after the ETA: restricted when none is open at it. */
export function tideOutcome(input: { name: string; portName: string; etaMs: number; draughtM: number; windows: { start: string; end: string }[] | null; requiredDepthM: number | null }): Outcome {
  if (input.windows === null) return { status: 'unknown' };
  const atEta = input.windows.find((window) => Date.parse(window.start) <= input.etaMs + 60_000 && Date.parse(window.end) > input.etaMs);
  if (atEta) return { status: 'categorical', holds: false };
  const next = input.windows.find((window) => Date.parse(window.start) > input.etaMs) ?? null;
  const eta = new Date(input.etaMs).toISOString();
  return {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: `${input.name} has not enough water at ${input.portName} at its predicted ETA ${eta} with a draught of ${input.draughtM} m` +
        (next ? `; the next tidal window opens at ${next.start}.` : '; no tidal window opens in the 12 hours after it.'),
      data: { predicted_eta: eta, draught_m: input.draughtM, required_depth_m: input.requiredDepthM, next_window: next },
    },
  };
}

export interface PredictionRulesInputs {
  fleet: FleetStore;
  maritime: MaritimeWatch;
  events: EventStore;
}

const vesselSubject = (vessel: FleetVessel): EventSubject => ({ type: 'vessel', id: String(vessel.mmsi), mmsi: vessel.mmsi, vehicle_id: vessel.vehicle_id });

export class PredictionRules {
  readonly #inputs: PredictionRulesInputs;

  constructor(inputs: PredictionRulesInputs) {
    this.#inputs = inputs;
  }

  async evaluate(fleetVessel: FleetVessel, nowMs = Date.now()): Promise<void> {
    const { fleet, maritime, events } = this.#inputs;
    const owner = fleetVessel.owner;
    const subject = vesselSubject(fleetVessel);
    const apply = (kind: 'vessel.eta_delayed' | 'port.weather_hold' | 'vessel.tide_restricted', outcome: Outcome) => applyOutcome(events, owner, kind, subject, outcome);
    const vessel = maritime.vessel(fleetVessel.mmsi);
    const settings = await fleet.notificationSettings(owner, fleetVessel.vehicle_id);
    if (vessel === null || settings === null) return;
    // Right after the start the port data may still be loading.
    await maritime.loaded();
    const port = maritime.destinationOf(vessel);
    if (port === null) {
      for (const kind of ['vessel.eta_delayed', 'port.weather_hold', 'vessel.tide_restricted'] as const) await apply(kind, { status: 'off' });
      return;
    }
    const name = vessel.name ?? `MMSI ${vessel.mmsi}`;
    const portName = `${port.name} (${port.id})`;
    const predicted = await maritime.predict(vessel, port);
    const prediction = predicted.ok ? predicted.prediction : null;
    const withPort = (outcome: Outcome): Outcome => {
      if ('event' in outcome && outcome.event) outcome.event.data = { ...outcome.event.data, port_id: port.id, destination: vessel.destination };
      return outcome;
    };

    await apply('vessel.eta_delayed', withPort(etaDelayOutcome({
      name, portName, predictedEta: prediction?.eta ?? null, reportedEta: vessel.eta, distanceNm: prediction?.distance_nm ?? null,
      thresholds: { own: settings.thresholds, effective: settings.effective },
    })));

    if (settings.effective.weather_hold !== true) await apply('port.weather_hold', { status: 'off' });
    else {
      const outcome = await holdsOutcome(() => maritime.holdsAt(port, owner, nowMs));
      if ('event' in outcome && outcome.event) {
        const first = outcome.event.data.first_hold as { start: string; end: string };
        outcome.event.summary = `Weather is forecast to hold ${portName}, where ${name} is bound, from ${first.start} to ${first.end}.`;
        outcome.event.data = { ...outcome.event.data, predicted_eta: prediction?.eta ?? null };
      }
      await apply('port.weather_hold', withPort(outcome));
    }

    if (prediction === null || vessel.draught === null || vessel.draught <= 0) await apply('vessel.tide_restricted', { status: 'unknown' });
    else {
      const etaMs = Date.parse(prediction.eta);
      const windows = await maritime.tidalWindowsAt(port, vessel.draught, etaMs, etaMs + TIDE_LOOKAHEAD_MS);
      await apply('vessel.tide_restricted', withPort(tideOutcome({
        name, portName, etaMs, draughtM: vessel.draught, windows: windows?.windows ?? null, requiredDepthM: windows?.required_depth_m ?? null,
      })));
    }
  }
}
