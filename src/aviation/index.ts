// What the service and other features may use of aviation: the feature and its migrations.
export { aviation } from './feature.ts';
export { aviationMigrations } from './migrations/index.ts';
