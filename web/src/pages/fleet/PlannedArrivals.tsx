// An aircraft's or helicopter's planned arrivals, on its fleet page: the watched ones by ETA
// (GET …/fleet/vehicles/{id}/arrivals), planning one (POST, the destination and the ETA in UTC)
// and removing one. LAMIS watches each until an hour after its ETA and raises alerts about it.
import { LamisApiError } from '@lamis/sdk';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { Alert, Button, ConfirmButton, EmptyState, ErrorMessage, Loading, Section } from '../../app/ui/basics.tsx';
import { TextField } from '../../app/ui/forms.tsx';
import { utcFromInput, utcInputValue } from '../landing/format.ts';

export function PlannedArrivals({ orgId, vehicleId, readOnly }: { orgId: string; vehicleId: string; readOnly: boolean }) {
  const path = { orgId, id: vehicleId };
  const arrivals = useAsync((signal) => api('GET /v3/organisations/{orgId}/fleet/vehicles/{id}/arrivals', { path, query: { limit: 100 } }, { signal }), [orgId, vehicleId]);
  const [destination, setDestination] = useState('');
  const [eta, setEta] = useState(() => utcInputValue(Date.now() + 2 * 3_600_000));
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [planned, setPlanned] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  async function plan(event: Event) {
    event.preventDefault();
    setFailure(null);
    setFields({});
    setPlanned(null);
    const etaUtc = utcFromInput(eta);
    if (!etaUtc) {
      setFields({ eta_utc: 'Give the date and time of arrival, in UTC.' });
      return;
    }
    setBusy(true);
    try {
      const arrival = await api('POST /v3/organisations/{orgId}/fleet/vehicles/{id}/arrivals', {
        path, body: { destination_icao: destination.trim().toUpperCase(), eta_utc: etaUtc },
      });
      setPlanned(`Arrival at ${arrival.destination_icao} at ${formatUtc(arrival.eta_utc)} planned: LAMIS watches it until ${formatUtc(arrival.watched_until)}.`);
      setDestination('');
      arrivals.reload();
    } catch (error) {
      setFailure(error);
      if (error instanceof LamisApiError) {
        setFields(Object.fromEntries(error.fieldErrors.map((issue) => [issue.path.split('/').at(-1) ?? '', issue.message])));
      }
    } finally {
      setBusy(false);
    }
  }

  async function remove(arrivalId: string) {
    setRemoving(arrivalId);
    setFailure(null);
    try {
      await api('DELETE /v3/organisations/{orgId}/fleet/vehicles/{id}/arrivals/{arrivalId}', { path: { ...path, arrivalId } });
      arrivals.reload();
    } catch (error) {
      setFailure(error);
    } finally {
      setRemoving(null);
    }
  }

  const list = arrivals.data?.data ?? [];
  return (
    <Section title="Planned arrivals" id="arrivals">
      <p class="muted">LAMIS watches each arrival until an hour after its ETA: the landing conditions at that time against this aircraft's limits and your thresholds raise alerts.</p>
      {arrivals.error ? <ErrorMessage error={arrivals.error} /> : null}
      {arrivals.loading && !arrivals.data ? <Loading /> : list.length === 0 ? (
        <EmptyState title="No planned arrivals">{readOnly ? 'Owners, admins and members plan arrivals.' : 'Plan one below to have it watched.'}</EmptyState>
      ) : (
        <ul class="arrival-list" aria-label="Planned arrivals">
          {list.map((arrival) => (
            <li key={arrival.id}>
              <strong class="mono">{arrival.destination_icao}</strong>
              <span>ETA {formatUtc(arrival.eta_utc)}</span>
              <a href={`/landing?icao=${arrival.destination_icao}&vehicle=${vehicleId}&eta=${encodeURIComponent(arrival.eta_utc)}`}>Brief<span class="visually-hidden"> the arrival at {arrival.destination_icao}</span></a>
              {!readOnly && (
                <ConfirmButton label="Remove" question={`Remove the arrival at ${arrival.destination_icao}?`} confirmLabel="Yes, remove"
                  busy={removing === arrival.id} onConfirm={() => remove(arrival.id)} />
              )}
            </li>
          ))}
        </ul>
      )}
      {!readOnly && (
        <form class="arrival-form" onSubmit={plan} noValidate aria-label="Plan an arrival">
          {planned && <Alert tone="success">{planned}</Alert>}
          <ErrorMessage error={failure} inFields={Object.keys(fields).length > 0} />
          <div class="row">
            <TextField label="Destination" hint="ICAO code, e.g. EGLL." value={destination} onValue={setDestination} error={fields.destination_icao ?? null}
              autoComplete="off" maxLength={4} />
            <TextField label="ETA (UTC)" hint="Date and time, in UTC." type="datetime-local" value={eta} onValue={setEta} error={fields.eta_utc ?? null} step={60} />
          </div>
          <Button type="submit" variant="primary" busy={busy}>Plan arrival</Button>
        </form>
      )}
    </Section>
  );
}
