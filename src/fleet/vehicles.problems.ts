// The problem codes of the fleet's routes (both mounts).
import { problemType } from '../platform/http/problems.ts';

export const vehicleNotFound = problemType({
  code: 'vehicle_not_found',
  status: 404,
  title: 'No such vehicle',
  description: 'No vehicle with this id is in the fleet of your organisation (or API key).',
});

export const duplicateRegistration = problemType({
  code: 'duplicate_registration',
  status: 409,
  title: 'The registration is already in the fleet',
  description: 'Another vehicle of your fleet has this registration. Registrations compare in upper case without spaces or hyphens: G-EUPT is GEUPT.',
});

export const vehicleIdempotencyKeyReused = problemType({
  code: 'vehicle_idempotency_key_reused',
  status: 422,
  title: 'The Idempotency-Key was used for another vehicle',
  description: 'The key already created a vehicle from other fields; send a new key for a new vehicle.',
});
