// What the service and other features may use of aviation.
export { aviationMigrations } from './migrations/index.ts';
