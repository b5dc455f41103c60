export { blindIndex, type Normalise } from './blind-index.ts';
export { Envelope, EnvelopeError, type EnvelopeFailure } from './envelope.ts';
export { keyId, masterKey, MASTER_KEY_ENV, MASTER_KEY_FILE, type MasterKey, type MasterKeySource } from './master-key.ts';
