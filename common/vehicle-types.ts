// The vehicle categories LAMIS knows: what a user operates (onboarding), what a fleet holds and
// what the landing endpoint takes.

export const VEHICLE_TYPES = ['aircraft', 'helicopter', 'vessel'] as const;
export type VehicleType = (typeof VEHICLE_TYPES)[number];
