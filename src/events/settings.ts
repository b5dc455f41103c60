// The events feature's rows of the configuration table: how long a cleared event is kept. A leaf:
// the settings are read by every command that takes them, without loading the feature.
import { integer, setting, type SettingsOf } from '../platform/config/index.ts';

export const EVENTS_SETTINGS = [
  setting({ key: 'eventRetentionDays', env: 'LAMIS_EVENT_RETENTION_DAYS', flag: 'event-retention-days', shown: '90', defaultValue: 90,
    parse: integer(1, 3650),
    description: 'How long an event is kept after it cleared, with its changes; an event stream cannot resume from before the changes retention took out (days)' }),
] as const;

export type EventsSettings = SettingsOf<typeof EVENTS_SETTINGS>;
