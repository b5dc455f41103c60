// The service's configuration table: the platform's settings, then each feature's, in the order
// the server starts the features. Parsing, validation, `lamis <cmd> --help` and the README's
// configuration table all follow it, and `Config` is what it loads to.
//
// The features' settings modules are imported directly rather than through each feature's index:
// they are leaves, so a command that takes settings loads them and not the features.
import { ACCOUNTS_SETTINGS } from './accounts/settings.ts';
import { AVIATION_SETTINGS } from './aviation/settings.ts';
import { EVENTS_SETTINGS } from './events/settings.ts';
import { INTELLIGENCE_SETTINGS } from './intelligence/settings.ts';
import { MARITIME_SETTINGS } from './maritime/settings.ts';
import { loadSettings, type SettingsOf } from './platform/config/index.ts';
import { PLATFORM_SETTINGS } from './platform/settings.ts';
import { WEBHOOKS_SETTINGS } from './webhooks/settings.ts';

export const SETTINGS = [...PLATFORM_SETTINGS, ...AVIATION_SETTINGS, ...MARITIME_SETTINGS, ...EVENTS_SETTINGS, ...WEBHOOKS_SETTINGS, ...ACCOUNTS_SETTINGS, ...INTELLIGENCE_SETTINGS] as const;

export type Config = SettingsOf<typeof SETTINGS>;

/**
 * Builds the config from the environment and flag values (by flag name, without dashes). Every bad
 * value is reported at once, each naming its variable and flag.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Record<string, string | undefined> = {}): Config {
  return loadSettings(SETTINGS, env, flags);
}

/** The config with no environment: the embedded defaults, plus overrides (used by tests). */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
