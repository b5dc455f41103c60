// What the service and other features may use of notifications: the feature, the choices a member
// makes per severity with their defaults, and the migrations.
export { notifications } from './feature.ts';
export { DEFAULT_PREFERENCES, DELIVERIES, type Delivery, type Preferences } from './preferences.ts';
export { notificationsMigrations } from './migrations/index.ts';
