// What the service may use of webhooks: the feature and its migrations (its settings are read
// from settings.ts directly, as every feature's are).
export { webhooks } from './feature.ts';
export { webhooksMigrations } from './migrations/index.ts';
