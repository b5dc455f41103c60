// What the service and other features may use of maritime.
export { maritimeMigrations } from './migrations/index.ts';
