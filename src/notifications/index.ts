// What the service may use of notifications: the feature and its migrations.
export { notifications } from './feature.ts';
export { notificationsMigrations } from './migrations/index.ts';
