// Add a vehicle (`/fleet/new`) or change one (`/fleet/:id`): the profile form for its type, with
// the API's validation messages under each field. Adding sends an Idempotency-Key made once per
// form, so a retry after a lost answer cannot add the vehicle twice. Viewers see the profile only.
import { useEffect, useState } from 'preact/hooks';
import { LamisApiError } from '@lamis/sdk';
import { api } from '../../api/client.ts';
import { errorCode } from '../../api/errors.ts';
import { useMembership } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate, usePageTitle, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ConfirmButton, EmptyState, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { RadioCards, TextField } from '../../app/ui/forms.tsx';
import { HelicopterIcon, PlaneIcon, ShipIcon } from '../../app/ui/icons.tsx';
import { leaveNotice } from './notice.ts';
import { PlannedArrivals } from './PlannedArrivals.tsx';
import {
  createBody, emptyForm, FIELDS_BY_TYPE, formFromVehicle, mapFieldErrors, patchBody, switchType, VEHICLE_TYPE_NAMES, vehicleName,
  type FormValues, type MappedErrors, type Vehicle, type VehicleType,
} from './vehicle-form.ts';
import './fleet.css';
import { FIELD_LABELS } from '../../app/field-labels.ts';

const TYPE_OPTIONS = [
  { value: 'aircraft', label: 'Aircraft', description: 'Aeroplanes: registration and ICAO type', icon: <PlaneIcon /> },
  { value: 'helicopter', label: 'Helicopter', description: 'Registration and ICAO type', icon: <HelicopterIcon /> },
  { value: 'vessel', label: 'Vessel', description: 'MMSI, and the IMO number if it has one', icon: <ShipIcon /> },
];

const NO_ERRORS: MappedErrors = { fields: {}, other: [] };

function ProfileForm({ initial, original, readOnly, orgId }: { initial: FormValues; original: Vehicle | null; readOnly: boolean; orgId: string }) {
  const [values, setValues] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [errors, setErrors] = useState<MappedErrors>(NO_ERRORS);
  const [unchanged, setUnchanged] = useState(false);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const set = (name: keyof FormValues, value: string) => {
    setValues((before) => ({ ...before, [name]: value }));
    setUnchanged(false);
  };

  async function save(event: Event) {
    event.preventDefault();
    if (busy || readOnly) return;
    setBusy(true);
    setFailure(null);
    setErrors(NO_ERRORS);
    try {
      if (original) {
        const body = patchBody(values, original);
        if (Object.keys(body).length === 0) {
          setUnchanged(true);
          return;
        }
        const saved = await api('PATCH /v3/organisations/{orgId}/fleet/vehicles/{id}', { path: { orgId, id: original.id }, body });
        leaveNotice(`${vehicleName(saved)} was saved.`);
      } else {
        const saved = await api('POST /v3/organisations/{orgId}/fleet/vehicles', {
          path: { orgId }, headers: { 'idempotency-key': idempotencyKey }, body: createBody(values),
        });
        leaveNotice(`${vehicleName(saved)} was added to the fleet.`);
      }
      navigate('/fleet');
    } catch (error) {
      setFailure(error);
      if (error instanceof LamisApiError) {
        setErrors(mapFieldErrors(error.fieldErrors, values));
        if (error.code === 'duplicate_registration') setErrors({ fields: { registration: 'Another vehicle of your fleet has this registration.' }, other: [] });
      }
      // The first field with a message takes focus, so keyboard and screen reader users land on it.
      requestAnimationFrame(() => document.querySelector<HTMLElement>('.vehicle-form [aria-invalid="true"]')?.focus());
    } finally {
      setBusy(false);
    }
  }

  const specs = FIELDS_BY_TYPE[values.vehicle_type];
  const hasFieldErrors = Object.keys(errors.fields).length > 0;
  return (
    <form class="card form-wide vehicle-form" onSubmit={save} noValidate aria-label={original ? 'Vehicle profile' : 'New vehicle'}>
      {failure ? (
        hasFieldErrors || errors.other.length
          ? (
            <Alert tone="error" title="Please check the profile">
              <p>{hasFieldErrors ? 'LAMIS did not accept some fields; each says why below.' : ''}</p>
              {errors.other.length > 0 && <ul>{errors.other.map((message) => <li key={message}>{message}</li>)}</ul>}
            </Alert>
          )
          : <ErrorMessage error={failure} title={original ? 'Not saved' : 'Not added'} />
      ) : null}
      {unchanged && <Alert tone="info">Nothing has changed.</Alert>}
      <RadioCards legend={FIELD_LABELS.vehicle_type} name="vehicle_type" value={values.vehicle_type} error={errors.fields.vehicle_type}
        options={TYPE_OPTIONS.map((o) => ({ ...o, disabled: readOnly && o.value !== values.vehicle_type }))}
        onValue={(value) => {
          setValues((before) => switchType(before, value as VehicleType));
          setErrors(NO_ERRORS);
          setUnchanged(false);
        }} />
      <div class="vehicle-fields">
        {specs.map((spec) => (
          <TextField
            key={`${values.vehicle_type}-${spec.name}`}
            name={spec.name}
            label={spec.label}
            hint={spec.hint}
            optional={!spec.required}
            required={spec.required}
            inputMode={spec.inputMode}
            placeholder={readOnly ? undefined : spec.placeholder}
            autoComplete="off"
            spellcheck={false}
            readOnly={readOnly}
            value={values[spec.name]}
            onValue={(value) => set(spec.name, value)}
            error={errors.fields[spec.name]}
          />
        ))}
      </div>
      {!readOnly && (
        <div class="button-row">
          <Button type="submit" variant="primary" busy={busy}>{original ? 'Save changes' : 'Add vehicle'}</Button>
          <a href="/fleet" class="button button-quiet">Cancel</a>
        </div>
      )}
    </form>
  );
}

export default function VehicleEditor({ params }: PageProps) {
  const membership = useMembership();
  const orgId = membership?.org_id ?? null;
  const id = params.id ?? null;
  const readOnly = membership?.role === 'viewer';
  const vehicle = useAsync(
    (signal) => (id && orgId ? api('GET /v3/organisations/{orgId}/fleet/vehicles/{id}', { path: { orgId, id } }, { signal }) : Promise.resolve(null)),
    [id, orgId],
  );
  const [removing, setRemoving] = useState(false);
  const [removeError, setRemoveError] = useState<unknown>(null);
  const title = id ? (vehicle.data ? vehicleName(vehicle.data) : 'Vehicle') : 'Add vehicle';
  usePageTitle(title);
  useEffect(() => setRemoveError(null), [id]);

  if (!orgId) return <Loading />;
  if (!id && readOnly) {
    return (
      <>
        <PageHeader title="Add vehicle" />
        <Alert tone="info">As a viewer of {membership?.name} you cannot add vehicles; owners, admins and members can. <a href="/fleet">Back to the fleet</a></Alert>
      </>
    );
  }
  if (id && vehicle.loading && !vehicle.data) return <Loading label="Loading the vehicle…" />;
  if (id && vehicle.error) {
    return errorCode(vehicle.error) === 'vehicle_not_found'
      ? <EmptyState title="No such vehicle" action={<ButtonLink href="/fleet">Back to the fleet</ButtonLink>}>It may have been removed, or it belongs to another organisation.</EmptyState>
      : <ErrorMessage error={vehicle.error} title="The vehicle could not be loaded" />;
  }

  async function remove(target: Vehicle) {
    setRemoving(true);
    setRemoveError(null);
    try {
      await api('DELETE /v3/organisations/{orgId}/fleet/vehicles/{id}', { path: { orgId: orgId!, id: target.id } });
      leaveNotice(`${vehicleName(target)} was removed from the fleet.`);
      navigate('/fleet');
    } catch (error) {
      setRemoveError(error);
    } finally {
      setRemoving(false);
    }
  }

  const current = vehicle.data ?? null;
  return (
    <div class="fleet-page">
      <PageHeader
        title={current ? `${VEHICLE_TYPE_NAMES[current.vehicle_type]} ${vehicleName(current)}` : 'Add vehicle'}
        actions={current && !readOnly ? (
          <ConfirmButton size="normal" label="Remove" question={`Remove ${vehicleName(current)} from the fleet?`} confirmLabel="Yes, remove" busy={removing}
            onConfirm={() => remove(current)} />
        ) : undefined}
      >
        {current
          ? <p>Added {formatUtc(current.created_at)}, last changed {formatUtc(current.updated_at)}. <a href="/fleet">Back to the fleet</a></p>
          : <p>The profile of an aircraft, helicopter or vessel. <a href="/fleet">Back to the fleet</a></p>}
      </PageHeader>
      <ErrorMessage error={removeError} title="Not removed" />
      {readOnly && <Alert tone="info">As a viewer you can see this profile but not change it.</Alert>}
      <ProfileForm key={current?.id ?? 'new'} initial={current ? formFromVehicle(current) : emptyForm()} original={current} readOnly={readOnly} orgId={orgId} />
      {current && current.vehicle_type !== 'vessel' && <PlannedArrivals orgId={orgId} vehicleId={current.id} readOnly={readOnly} />}
    </div>
  );
}
