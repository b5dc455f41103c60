// The fleet: the organisation's vehicles, a page at a time (cursor pagination, "Show more"),
// narrowed by type, with links to add, change and remove them. Viewers see the list only.
import { useEffect, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { useMembership } from '../../api/session.ts';
import { formatUtc } from '../../app/format.ts';
import { usePageTitle, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ButtonLink, ConfirmButton, EmptyState, ErrorMessage, Loading, PageHeader, StatusBadge } from '../../app/ui/basics.tsx';
import { DataTable } from '../../app/ui/table.tsx';
import { takeNotice } from './notice.ts';
import { VEHICLE_TYPE_NAMES, VEHICLE_TYPE_PLURALS, VEHICLE_TYPES, vehicleName, vehicleSummary, type Vehicle, type VehicleType } from './vehicle-form.ts';
import './fleet.css';

const PAGE_SIZE = 25;

interface Listing {
  vehicles: Vehicle[];
  next: string | null;
}

export default function Fleet({ query }: PageProps) {
  usePageTitle('Fleet');
  const membership = useMembership();
  const orgId = membership?.org_id ?? null;
  const canManage = membership !== null && membership.role !== 'viewer';
  const filter = (VEHICLE_TYPES as readonly string[]).includes(query.get('type') ?? '') ? (query.get('type') as VehicleType) : null;

  const [listing, setListing] = useState<Listing | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const [notice, setNotice] = useState<string | null>(() => takeNotice());
  const [removing, setRemoving] = useState<string | null>(null);

  async function load(cursor: string | null, signal?: AbortSignal) {
    if (!orgId) return;
    setLoading(true);
    setError(null);
    try {
      const page = await api('GET /v3/organisations/{orgId}/fleet/vehicles', {
        path: { orgId },
        query: { limit: PAGE_SIZE, ...(filter ? { vehicle_type: filter } : {}), ...(cursor ? { cursor } : {}) },
      }, { signal });
      if (signal?.aborted) return;
      setListing((before) => ({ vehicles: [...(cursor && before ? before.vehicles : []), ...page.data], next: page.next_cursor }));
    } catch (failure) {
      if (!signal?.aborted) setError(failure);
    } finally {
      if (!signal?.aborted) setLoading(false);
    }
  }

  useEffect(() => {
    const controller = new AbortController();
    setListing(null);
    void load(null, controller.signal);
    return () => controller.abort();
  }, [orgId, filter]);

  async function remove(vehicle: Vehicle) {
    if (!orgId) return;
    setRemoving(vehicle.id);
    setError(null);
    try {
      await api('DELETE /v3/organisations/{orgId}/fleet/vehicles/{id}', { path: { orgId, id: vehicle.id } });
      setListing((before) => before && { ...before, vehicles: before.vehicles.filter((v) => v.id !== vehicle.id) });
      setNotice(`${vehicleName(vehicle)} was removed from the fleet.`);
    } catch (failure) {
      setError(failure);
    } finally {
      setRemoving(null);
    }
  }

  const vehicles = listing?.vehicles ?? [];
  return (
    <div class="fleet-page">
      <PageHeader title="Fleet" actions={canManage ? <ButtonLink href="/fleet/new" variant="primary">Add vehicle</ButtonLink> : undefined}>
        <p>The aircraft, helicopters and vessels of {membership?.name ?? 'your organisation'}. Landing briefings use each aircraft's own limits.</p>
      </PageHeader>
      {notice && <Alert tone="success">{notice}</Alert>}
      {membership?.role === 'viewer' && (
        <Alert tone="info">As a viewer of {membership.name} you can see the fleet but not change it; owners, admins and members can.</Alert>
      )}
      <nav class="tabs" aria-label="Vehicle type">
        <a href="/fleet" aria-current={filter === null ? 'page' : undefined}>All</a>
        {VEHICLE_TYPES.map((type) => (
          <a key={type} href={`/fleet?type=${type}`} aria-current={filter === type ? 'page' : undefined}>{VEHICLE_TYPE_PLURALS[type]}</a>
        ))}
      </nav>
      <ErrorMessage error={error} />
      {listing === null && loading ? <Loading label="Loading the fleet…" /> : (
        <DataTable
          caption={filter ? `${VEHICLE_TYPE_PLURALS[filter]} of the fleet` : 'Vehicles of the fleet'}
          captionHidden
          rows={vehicles}
          rowKey={(v) => v.id}
          empty={
            <EmptyState
              title={filter ? `No ${VEHICLE_TYPE_PLURALS[filter].toLowerCase()} in the fleet` : 'Your fleet is empty'}
              action={canManage ? <ButtonLink href="/fleet/new" variant="primary">Add vehicle</ButtonLink> : undefined}
            >
              {canManage
                ? 'Add your aircraft, helicopters and vessels: landing briefings then use their own crosswind limits and runway lengths.'
                : 'Owners, admins and members of the organisation can add vehicles.'}
            </EmptyState>
          }
          columns={[
            { header: 'Vehicle', cell: (v) => <a href={`/fleet/${v.id}`} class="vehicle-name">{vehicleName(v)}</a> },
            { header: 'Type', cell: (v) => <StatusBadge tone={v.vehicle_type === 'vessel' ? 'info' : 'neutral'}>{VEHICLE_TYPE_NAMES[v.vehicle_type]}</StatusBadge> },
            { header: 'Profile', cell: (v) => vehicleSummary(v) || <span class="muted">–</span> },
            { header: 'Added', cell: (v) => formatUtc(v.created_at, { show: 'date' }) },
            {
              header: 'Actions',
              cell: (v) => (
                <div class="row-actions">
                  {v.vehicle_type !== 'vessel' && <a class="button button-small button-quiet" href={`/landing?vehicle=${v.id}${v.home_base_icao ? `&icao=${v.home_base_icao}` : ''}`} aria-label={`Brief a landing of ${vehicleName(v)}`}>Brief</a>}
                  <a class="button button-small" href={`/fleet/${v.id}`} aria-label={`${canManage ? 'Edit' : 'View'} ${vehicleName(v)}`}>{canManage ? 'Edit' : 'View'}</a>
                  {canManage && (
                    <ConfirmButton label="Remove" question={`Remove ${vehicleName(v)}?`} confirmLabel="Yes, remove" busy={removing === v.id}
                      onConfirm={() => remove(v)} />
                  )}
                </div>
              ),
            },
          ]}
        />
      )}
      {listing?.next && (
        <div class="button-row">
          <Button busy={loading} onClick={() => load(listing.next)}>Show more</Button>
          <span class="muted small">{vehicles.length} shown</span>
        </div>
      )}
    </div>
  );
}
