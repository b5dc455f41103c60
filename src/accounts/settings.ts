// The accounts feature's rows of the configuration table: dashboard sessions and the clean-up of
// unverified sign-ups. A leaf: the settings are read by every command that takes them, without
// loading the feature.
import { integer, setting, type SettingsOf } from '../platform/config/index.ts';

export const ACCOUNTS_SETTINGS = [
  setting({ key: 'sessionIdleMinutes', env: 'LAMIS_SESSION_IDLE_MINUTES', flag: 'session-idle-minutes', shown: '30', defaultValue: 30,
    parse: integer(1, 1440), description: 'A dashboard session ends after this many minutes without a request' }),
  setting({ key: 'sessionMaxHours', env: 'LAMIS_SESSION_MAX_HOURS', flag: 'session-max-hours', shown: '12', defaultValue: 12,
    parse: integer(1, 720), description: 'A dashboard session ends this many hours after sign-in, whatever the activity' }),
  setting({ key: 'unverifiedAccountDays', env: 'LAMIS_UNVERIFIED_ACCOUNT_DAYS', flag: 'unverified-account-days', shown: '7', defaultValue: 7,
    parse: integer(1, 365), description: 'Accounts whose e-mail address is still not verified this many days after sign-up are deleted, duplicate sign-ups included' }),
] as const;

export type AccountsSettings = SettingsOf<typeof ACCOUNTS_SETTINGS>;
