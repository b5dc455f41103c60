// API keys revoked or replaced, for every instance that verifies keys: each holds what it read of
// a key for a while (KeyStore.verify) and forgets it when told, so a revocation or a rotation takes
// effect on all of them at once, not when their copy runs out.
import { topic } from '../../platform/bus/index.ts';

export interface KeyChange {
  key_id: string;
  org_id: string;
}

/** A key revoked, or rotated (its overlap set, possibly ending at once). */
export const apiKeyChanges = topic<KeyChange>('accounts.keys');
