// How the watch, prediction and feed rules turn what they found about one subject into an event
// transition: a categorical condition opens its event when it starts to hold and clears it when it
// stops; a measured one crosses its threshold with the kind's dead band (DEAD_BANDS). Without the
// data to decide (`unknown`) the event stays as it is; a rule switched off (`off`) clears it. An
// open event's severity, summary and data follow the finding while it holds.
import { crossingFor, DEAD_BANDS, type EventKind, type EventStore, type EventSubject, type NewEvent } from '../events/index.ts';

export type EventContent = Pick<NewEvent, 'severity' | 'summary' | 'data'>;

export type Outcome =
  | { status: 'unknown' }
  | { status: 'off' }
  | { status: 'categorical'; holds: boolean; event?: EventContent }
  | { status: 'measured'; value: number; threshold: number; event: EventContent };

/** Applies the outcome of `kind` about `subject` to the owner's events. */
export async function applyOutcome(events: EventStore, owner: string, kind: EventKind, subject: EventSubject, outcome: Outcome): Promise<void> {
  if (outcome.status === 'unknown') return;
  const open = await events.findOpen(owner, kind, subject);
  if (outcome.status === 'off') {
    if (open) await events.clear(owner, open.id);
    return;
  }
  let holds: boolean;
  if (outcome.status === 'categorical') holds = outcome.holds;
  else {
    if (!isThresholdKind(kind)) throw new Error(`${kind} has no dead band: a measured outcome needs one`);
    holds = crossingFor(kind, { value: outcome.value, threshold: outcome.threshold, wasOpen: open !== null }) !== (open ? 'clear' : 'hold');
  }
  const event = outcome.event;
  if (!holds) {
    if (open) await events.clear(owner, open.id);
  } else if (event) {
    if (open) await events.update(owner, open.id, event);
    else await events.open(owner, { kind, subject, ...event });
  }
}

const isThresholdKind = (kind: EventKind): kind is keyof typeof DEAD_BANDS => Object.hasOwn(DEAD_BANDS, kind);
