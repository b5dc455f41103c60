// What the zone form holds and sends: the name, description, the area (drawn, or a circle typed
// as centre and radius) and which other vessels it watches beside the fleet. A change sends only
// what differs. Pure, so it is tested without a browser.
import { parseFlags, type AppliesTo, type CircleGeometry, type VesselCategory, type Zone, type ZoneGeometry } from './zone-geometry.ts';

export interface ZoneForm {
  name: string;
  description: string;
  geometry: ZoneGeometry | null;
  categories: VesselCategory[];
  /** As typed: `GB, NL`. */
  flags: string;
}

export const EMPTY_ZONE_FORM: ZoneForm = { name: '', description: '', geometry: null, categories: [], flags: '' };

export function formFromZone(zone: Zone): ZoneForm {
  return {
    name: zone.name,
    description: zone.description ?? '',
    geometry: zone.geometry,
    categories: [...(zone.applies_to.categories ?? [])],
    flags: (zone.applies_to.flags ?? []).join(', '),
  };
}

export function appliesToOf(form: ZoneForm): AppliesTo {
  const flags = parseFlags(form.flags);
  return { fleet: true, ...(form.categories.length ? { categories: [...form.categories].sort() } : {}), ...(flags.length ? { flags } : {}) };
}

export interface ZoneBody {
  name: string;
  description?: string | null;
  geometry: ZoneGeometry;
  applies_to: AppliesTo;
}

/** The body of `POST /v3/zones` (the form has its area). A blank description is left out. */
export function newZoneBody(form: ZoneForm & { geometry: ZoneGeometry }): ZoneBody {
  const description = form.description.trim();
  return { name: form.name.trim(), ...(description ? { description } : {}), geometry: form.geometry, applies_to: appliesToOf(form) };
}

const sameAppliesTo = (a: AppliesTo, b: AppliesTo) =>
  [...(a.categories ?? [])].sort().join() === [...(b.categories ?? [])].sort().join() && (a.flags ?? []).join() === (b.flags ?? []).join();

/** The body of `PATCH /v3/zones/{id}`: only what differs; a blank description clears it. */
export function zoneChanges(form: ZoneForm, zone: Zone): Partial<ZoneBody> {
  const changes: Partial<ZoneBody> = {};
  const name = form.name.trim();
  if (name !== zone.name) changes.name = name;
  const description = form.description.trim() || null;
  if (description !== zone.description) changes.description = description;
  if (form.geometry && JSON.stringify(form.geometry) !== JSON.stringify(zone.geometry)) changes.geometry = form.geometry;
  const appliesTo = appliesToOf(form);
  if (!sameAppliesTo(appliesTo, zone.applies_to)) changes.applies_to = appliesTo;
  return changes;
}

export interface CircleFields {
  lat: string;
  lon: string;
  radius: string;
}

export function circleFields(geometry: ZoneGeometry | null): CircleFields {
  return geometry?.type === 'Circle'
    ? { lat: String(geometry.center.lat), lon: String(geometry.center.lon), radius: String(geometry.radius_nm) }
    : { lat: '', lon: '', radius: '' };
}

/**
 * The circle typed, as numbers; the API judges the ranges (and names the field it refuses), so a
 * field that is not a number is sent as it is typed and refused by name.
 */
export function circleFromFields(fields: CircleFields): CircleGeometry {
  const number = (text: string) => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text.trim());
  return { type: 'Circle', center: { lat: number(fields.lat) as number, lon: number(fields.lon) as number }, radius_nm: number(fields.radius) as number };
}
