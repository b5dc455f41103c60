// The aircraft type as the API serves it: by itself (the aircraft type routes) and as the aircraft
// of a landing answer.
import { Type } from 'typebox';
import { nullable, Shared } from '../../platform/http/schema.ts';

export const aircraftTypeFields = {
  designator: Type.String({ description: 'ICAO Doc 8643 type designator' }),
  manufacturer: Type.String(),
  model: Type.String(),
  description: Type.String({ description: 'ICAO Doc 8643 description: L landplane, S seaplane, A amphibian, H helicopter, G gyrocopter, T tiltrotor; engines; J jet, T turboprop/turboshaft, P piston, E electric ("L2J")' }),
  vehicle_category: Type.Union([Type.Literal('aircraft'), Type.Literal('helicopter')]),
  approach_category: Type.Enum(['A', 'B', 'C', 'D', 'E', 'H'], { description: 'ICAO approach category by threshold speed; H for helicopters' }),
  wake_category: Type.Enum(['L', 'M', 'H', 'J'], { description: 'ICAO wake turbulence category (J: super)' }),
  recat_eu: nullable(Type.Enum(['A', 'B', 'C', 'D', 'E', 'F'], { description: 'EUROCONTROL RECAT-EU category' })),
  vref_kt: nullable(Type.Number({ description: 'Reference landing speed at maximum landing mass' })),
  crosswind_limit_kt: Type.Number({ description: 'Conservative crosswind component, gusts included: the demonstrated figure where public, else the certification minimum. Not an operational limit' }),
  landing_distance_m: Type.Number({ description: 'Unfactored landing distance at maximum landing mass, sea level, ISA, dry paved runway' }),
  min_runway_m: Type.Number({ description: 'Runway for a dispatch-factored landing: landing distance / 0.6, rounded up to 10 m' }),
  confidence: Type.Union([Type.Literal('published'), Type.Literal('estimated')], { description: '`estimated`: at least one figure is a conservative estimate' }),
  source: Type.String({ description: 'The public references the figures come from' }),
};
export const AircraftTypeSchema = Shared('AircraftType', Type.Object(aircraftTypeFields));
