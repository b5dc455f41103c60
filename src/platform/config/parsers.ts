// Parsers the settings tables share: numbers, URLs, switches, text.
import type { Parse } from './setting.ts';

/** `auto`: the simulator runs when no live source of its kind is configured. */
export type SimulatorSwitch = 'auto' | 'on' | 'off';

export function integer(min: number, max: number): Parse<number> {
  return (raw) => {
    const value = Number(raw);
    return /^-?\d+$/.test(raw.trim()) && value >= min && value <= max
      ? { value }
      : { error: `must be a whole number from ${min} to ${max}` };
  };
}

/** A URL with one of the protocols; empty means unset. */
export function url(protocols: string[]): Parse<string | undefined> {
  return (raw) => {
    if (raw === '') return { value: undefined };
    try {
      const parsed = new URL(raw);
      if (protocols.includes(parsed.protocol)) return { value: raw };
    } catch {
      // fall through to the message below
    }
    return { error: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` };
  };
}

export function requiredUrl(protocols: string[]): Parse<string> {
  const optional = url(protocols);
  return (raw) => {
    const parsed = optional(raw);
    if ('error' in parsed) return parsed;
    return parsed.value === undefined ? { error: 'must not be empty' } : { value: parsed.value };
  };
}

/** An http(s) URL without query or fragment, kept without its trailing slash. */
export const baseUrl: Parse<string | undefined> = (raw) => {
  const parsed = url(['https:', 'http:'])(raw);
  if ('error' in parsed || parsed.value === undefined) return parsed;
  const { search, hash } = new URL(parsed.value);
  return search || hash ? { error: 'must have no query (?) or fragment (#)' } : { value: parsed.value.replace(/\/+$/, '') };
};

/** A base URL that must be given (it has a default). */
export const requiredBaseUrl: Parse<string> = (raw) => {
  const parsed = baseUrl(raw);
  if ('error' in parsed) return parsed;
  return parsed.value === undefined ? { error: 'must not be empty' } : { value: parsed.value };
};

/** A fraction from 0 to 1, as a decimal number (also for the operator commands that take one). */
export const fraction: Parse<number> = (raw) => {
  const value = Number(raw);
  return /^\s*[\d.]+\s*$/.test(raw) && value >= 0 && value <= 1 ? { value } : { error: 'must be a fraction from 0 to 1 (e.g. 0.5)' };
};

export const text: Parse<string> = (raw) => (raw.trim() === '' ? { error: 'must not be empty' } : { value: raw.trim() });

export const optionalText: Parse<string | undefined> = (raw) => ({ value: raw.trim() === '' ? undefined : raw.trim() });

export const boolean: Parse<boolean> = (raw) => {
  const lower = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lower)) return { value: true };
  if (['0', 'false', 'no', 'off'].includes(lower)) return { value: false };
  return { error: 'must be true or false' };
};

export const simulatorSwitch: Parse<SimulatorSwitch> = (raw) => {
  const lower = raw.trim().toLowerCase();
  if (lower === 'auto') return { value: 'auto' };
  const flag = boolean(lower);
  return 'error' in flag ? { error: 'must be auto, on or off' } : { value: flag.value ? 'on' : 'off' };
};
