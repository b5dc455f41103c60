// Draw a zone (`/zones/new`, opening at `?lat=&lon=&zoom=` when given) or change one (`/zones/{id}`):
// the area drawn on the map as a polygon or a circle, or a circle typed as centre and radius (the
// way without a pointer); its name and description; which vessels beside the fleet it watches.
// The API judges what is valid and each message shows under the field its path names.
import { useState } from 'preact/hooks';
import { data } from '../../api/data-key.ts';
import { FIELD_LABELS } from '../../app/field-labels.ts';
import { formatUtc } from '../../app/format.ts';
import { useAsync } from '../../app/hooks.ts';
import { navigate, usePageTitle, type PageProps } from '../../app/router.tsx';
import { Alert, Button, ConfirmButton, ErrorMessage, Loading, PageHeader } from '../../app/ui/basics.tsx';
import { Checkbox, TextField, useSubmit } from '../../app/ui/forms.tsx';
import { leaveNotice, takeNotice } from '../fleet/notice.ts';
import { CATEGORIES } from '../map/categories.ts';
import { circleFields, circleFromFields, EMPTY_ZONE_FORM, formFromZone, newZoneBody, zoneChanges, type CircleFields, type ZoneForm } from './zone-form.ts';
import { shapeSummary, type VesselCategory, type Zone, type ZoneGeometry } from './zone-geometry.ts';
import { ZoneMap, type DrawTool } from './ZoneMap.tsx';
import './zones.css';

/** The editor shows only the zone in hand; one list for every render, so the map is not fed anew on each keystroke. */
const NO_ZONES: Zone[] = [];

const TOOL_HINTS: Record<DrawTool, string> = {
  polygon: 'Click each corner in turn, then click the first corner again (or press Enter) to close the area.',
  circle: 'Click the centre, move out to the radius you want, and click again.',
};

/** Field errors whose path is under the geometry but not one of the circle's fields: said beside the area. */
function areaError(fields: Record<string, string>): string | undefined {
  const entry = Object.entries(fields).find(([key]) => key.startsWith('geometry') && !['geometry/center/lat', 'geometry/center/lon', 'geometry/radius_nm'].includes(key));
  return entry && `${entry[0] === 'geometry' ? '' : `${entry[0].replace(/^geometry\//, '')} `}${entry[1]}`;
}

function ZoneFormView({ zone, view, onSaved }: { zone: Zone | null; view: { center?: [number, number]; zoom?: number }; onSaved: (zone: Zone) => void }) {
  const [form, setForm] = useState<ZoneForm>(() => (zone ? formFromZone(zone) : EMPTY_ZONE_FORM));
  const [circle, setCircle] = useState<CircleFields>(() => circleFields(zone?.geometry ?? null));
  const [tool, setTool] = useState<DrawTool | null>(zone ? null : 'polygon');
  const [missingArea, setMissingArea] = useState(false);
  const [notice, setNotice] = useState<string | null>(() => takeNotice());
  const set = (changes: Partial<ZoneForm>) => {
    setForm((before) => ({ ...before, ...changes }));
    setNotice(null);
  };
  const takeGeometry = (geometry: ZoneGeometry) => {
    set({ geometry });
    setCircle(circleFields(geometry));
    setMissingArea(false);
    setTool(null);
  };

  const submit = useSubmit(async () => {
    setNotice(null);
    if (!form.geometry) {
      setMissingArea(true);
      return;
    }
    if (!zone) {
      const created = await data('POST /v3/zones', { body: newZoneBody({ ...form, geometry: form.geometry }) });
      leaveNotice(`${created.name} is saved: LAMIS watches it from now on.`);
      navigate(`/zones/${created.id}`, { replace: true });
      return;
    }
    const body = zoneChanges(form, zone);
    if (Object.keys(body).length === 0) {
      setNotice('Nothing was changed.');
      return;
    }
    const saved = await data('PATCH /v3/zones/{id}', { path: { id: zone.id }, body });
    setForm(formFromZone(saved as Zone));
    setNotice(`${saved.name} is saved.`);
    onSaved(saved as Zone);
  });
  const remove = useSubmit(async () => {
    await data('DELETE /v3/zones/{id}', { path: { id: zone!.id } });
    navigate('/zones');
  });
  const errors = submit.fields;
  const area = missingArea ? 'Draw the area on the map, or type a circle below.' : areaError(errors);
  return (
    <form class="zone-editor" onSubmit={submit.onSubmit} noValidate aria-label={zone ? 'Change the zone' : 'Draw a zone'}>
      <div class="zone-editor-map">
        <div class="zone-tools" role="group" aria-label="Drawing tools">
          <Button size="small" variant={tool === 'polygon' ? 'primary' : 'secondary'} aria-pressed={tool === 'polygon'} onClick={() => setTool(tool === 'polygon' ? null : 'polygon')}>Draw a polygon</Button>
          <Button size="small" variant={tool === 'circle' ? 'primary' : 'secondary'} aria-pressed={tool === 'circle'} onClick={() => setTool(tool === 'circle' ? null : 'circle')}>Draw a circle</Button>
          {tool && <Button size="small" variant="quiet" onClick={() => setTool(null)}>Stop drawing</Button>}
        </div>
        <p class="small muted zone-tool-hint" aria-live="polite">{tool ? TOOL_HINTS[tool] : form.geometry ? 'Pan and zoom freely; choose a tool to draw the area again.' : 'Choose a tool to draw the area.'}</p>
        <ZoneMap zones={NO_ZONES} edited={form.geometry} tool={tool} onDrawn={takeGeometry} center={view.center} zoom={view.zoom}
          label={zone ? `Map of ${zone.name}` : 'Map to draw the zone on'} />
        <div class={`zone-area${area ? ' has-error' : ''}`}>
          <strong>{FIELD_LABELS.geometry}:</strong> <span data-testid="zone-area">{form.geometry ? shapeSummary(form.geometry) : 'none drawn yet'}</span>
          {area && <p class="field-error">{FIELD_LABELS.geometry}: {area}</p>}
        </div>
        <fieldset class="zone-circle">
          <legend>Or type a circle</legend>
          <div class="zone-circle-fields">
            <TextField label={FIELD_LABELS['geometry/center/lat']} inputMode="decimal" hint="−90 to 90 (north +)" value={circle.lat}
              onValue={(lat) => setCircle({ ...circle, lat })} error={errors['geometry/center/lat']} />
            <TextField label={FIELD_LABELS['geometry/center/lon']} inputMode="decimal" hint="−180 to 180 (east +)" value={circle.lon}
              onValue={(lon) => setCircle({ ...circle, lon })} error={errors['geometry/center/lon']} />
            <TextField label={FIELD_LABELS['geometry/radius_nm']} inputMode="decimal" hint="Above 0, at most 500" value={circle.radius}
              onValue={(radius) => setCircle({ ...circle, radius })} error={errors['geometry/radius_nm']} />
          </div>
          <Button size="small" onClick={() => takeGeometry(circleFromFields(circle))}>Use this circle</Button>
        </fieldset>
      </div>
      <div class="zone-editor-fields">
        <ErrorMessage error={submit.error ?? remove.error} inFields />
        <TextField label={FIELD_LABELS.name} required maxLength={100} value={form.name} onValue={(name) => set({ name })} hint="As alerts will name it, e.g. Maas approaches" error={errors.name} />
        <TextField label={FIELD_LABELS.description} optional maxLength={1000} value={form.description} onValue={(description) => set({ description })} error={errors.description} />
        <fieldset class="zone-applies">
          <legend>{FIELD_LABELS.applies_to}</legend>
          <Checkbox label="Your fleet's vessels" checked disabled onChecked={() => {}} hint="Always: a vessel of your fleet entering or leaving raises an alert." />
          <p class="zone-applies-title">{FIELD_LABELS['applies_to/categories']}</p>
          <div class="zone-categories">
            {CATEGORIES.map(({ category, label }) => (
              <Checkbox key={category} label={label} checked={form.categories.includes(category as VesselCategory)}
                onChecked={(checked) => set({ categories: checked ? [...form.categories, category as VesselCategory] : form.categories.filter((other) => other !== category) })} />
            ))}
          </div>
          {errors['applies_to/categories'] && <p class="field-error">{FIELD_LABELS['applies_to/categories']}: {errors['applies_to/categories']}</p>}
          <TextField label={FIELD_LABELS['applies_to/flags']} optional value={form.flags} onValue={(flags) => set({ flags })} placeholder="GB, NL"
            hint="Country codes (ISO 3166-1), e.g. GB, NL. With types chosen too, a vessel must match both." error={errors['applies_to/flags'] ?? Object.entries(errors).find(([key]) => key.startsWith('applies_to/flags/'))?.[1]} />
        </fieldset>
        <div class="button-row">
          <Button type="submit" variant="primary" busy={submit.busy}>{zone ? 'Save changes' : 'Save zone'}</Button>
          {zone && <ConfirmButton size="normal" label="Delete zone" question={`Delete ${zone.name}? Its open alerts stay as they are.`} busy={remove.busy} onConfirm={remove.run} />}
        </div>
        {notice && <Alert tone="success">{notice}</Alert>}
        {zone && <p class="small muted">Added {formatUtc(zone.created_at)}; last changed {formatUtc(zone.updated_at)}.</p>}
      </div>
    </form>
  );
}

function numberParam(query: URLSearchParams, name: string, min: number, max: number): number | undefined {
  const value = Number(query.get(name) ?? NaN);
  return Number.isFinite(value) && value >= min && value <= max ? value : undefined;
}

export default function ZoneEditor({ params, query }: PageProps) {
  const id = params.id;
  const zone = useAsync(async (signal) => (id ? ((await data('GET /v3/zones/{id}', { path: { id } }, { signal })) as Zone) : null), [id]);
  usePageTitle(zone.data?.name ?? (id ? 'Zone' : 'Draw a zone'));
  const lat = numberParam(query, 'lat', -85, 85);
  const lon = numberParam(query, 'lon', -180, 180);
  const view = { center: lat !== undefined && lon !== undefined ? [lon, lat] as [number, number] : undefined, zoom: numberParam(query, 'zoom', 0, 16) ?? (lat !== undefined ? 9 : 1.5) };
  return (
    <>
      <p><a href="/zones">← All zones</a></p>
      <PageHeader title={id ? zone.data?.name ?? 'Zone' : 'Draw a zone'}>
        LAMIS raises an alert when a vessel of your fleet enters or leaves a zone (and, if you choose, other vessels by type and flag).
      </PageHeader>
      <ErrorMessage error={zone.error} />
      {zone.loading && !zone.data && id ? <Loading /> : !zone.error && <ZoneFormView key={id ?? 'new'} zone={zone.data ?? null} view={view} onSaved={zone.setData} />}
    </>
  );
}
