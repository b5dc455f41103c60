// Audit log entries in words: who acted, what they did, to what, and the detail of the known
// actions. Names come from what the page has loaded (members, keys); an unknown id stays an id.
import { capitalise, formatUtc } from '../../app/format.ts';

export interface AuditEntryLike {
  actor: string;
  action: string;
  target: string;
  detail: Record<string, unknown>;
}

export interface AuditNames {
  /** Member names by user id. */
  users: ReadonlyMap<string, string>;
  /** Key names by key id. */
  keys: ReadonlyMap<string, string>;
}

export interface DescribedEntry {
  who: string;
  what: string;
  /** What the action was done to, by name, and its id when the name alone does not say which. */
  on: { name: string; id: string | null };
  /** The detail as short sentences; empty when there is nothing to add. */
  detail: string[];
}

const ACTIONS: Record<string, string> = {
  'org.created': 'Organisation created',
  'plan.changed': 'Plan changed',
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'key.rotated': 'API key rotated',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation revoked',
  'member.added': 'Member added',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'identity.result': 'Identity check decided',
  'password.reset': 'Password reset',
};

const OUTCOMES: Record<string, string> = { verified: 'verified', rejected: 'rejected', manual_review: 'sent to manual review' };
const REMOVAL_REASONS: Record<string, string> = { email_never_verified: 'the e-mail address was never verified' };

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const plan = (value: unknown): string => {
  const name = text(value);
  return name ? capitalise(name) : 'unknown';
};

/** `2026-03-12 14:20 UTC`: audit times are operational, so they read in UTC. */
function utc(iso: unknown): string | null {
  const value = text(iso);
  return value && !Number.isNaN(Date.parse(value)) ? formatUtc(value) : null;
}

export function userName(id: string, names: AuditNames): string {
  return names.users.get(id) ?? `a former member (${id})`;
}

export function keyName(id: string, names: AuditNames): string {
  const name = names.keys.get(id);
  return name ? `"${name}" (${id})` : id;
}

/** `user:<id>` → the member's name, `key:<id>` → the key's, `operator`, `system`. */
export function describeActor(actor: string, names: AuditNames): string {
  if (actor === 'operator') return 'An operator of LAMIS';
  if (actor === 'system') return 'LAMIS (automatic)';
  const [kind, ...rest] = actor.split(':');
  const id = rest.join(':');
  if (kind === 'user' && id) return userName(id, names);
  if (kind === 'key' && id) return `API key ${keyName(id, names)}`;
  return actor;
}

function describeTarget(entry: AuditEntryLike, names: AuditNames): DescribedEntry['on'] {
  const [area] = entry.action.split('.');
  if (entry.action === 'org.created' || entry.action === 'plan.changed') return { name: 'the organisation', id: null };
  if (area === 'key') {
    const name = names.keys.get(entry.target);
    return { name: name ? `key "${name}"` : 'a key', id: entry.target };
  }
  if (entry.action === 'member.invited' || entry.action === 'member.invitation_revoked') {
    const email = text(entry.detail.email);
    return email ? { name: `invitation to ${email}`, id: null } : { name: 'an invitation', id: entry.target };
  }
  if (area === 'member' || area === 'identity' || area === 'password') {
    const name = names.users.get(entry.target);
    return name ? { name, id: null } : { name: 'a former member', id: entry.target };
  }
  return { name: entry.target, id: null };
}

function describeDetail(entry: AuditEntryLike, names: AuditNames): string[] {
  const d = entry.detail;
  const lines: string[] = [];
  switch (entry.action) {
    case 'org.created':
      if (text(d.name)) lines.push(`Named ${d.name}, on the ${plan(d.plan)} plan.`);
      break;
    case 'plan.changed':
      lines.push(`From ${plan(d.from)} to ${plan(d.to)}.`);
      break;
    case 'key.created': {
      const environment = d.environment === 'production' ? 'A production' : d.environment === 'development' ? 'A development' : 'A';
      // Its name is in the target already.
      lines.push(`${environment} key.`);
      lines.push(utc(d.expires_at) ? `Expires ${utc(d.expires_at)}.` : 'Does not expire.');
      if (text(d.rotated_from)) lines.push(`Made by rotating ${keyName(d.rotated_from as string, names)}.`);
      break;
    }
    case 'key.rotated':
      if (text(d.new_key_id)) lines.push(`Replaced by ${keyName(d.new_key_id as string, names)}.`);
      lines.push(utc(d.overlap_until) ? `The old key works until ${utc(d.overlap_until)}.` : 'The old key stopped at once.');
      break;
    case 'member.invited':
      lines.push(`As ${text(d.role) ?? 'a member'}.`);
      if (text(d.replaces)) lines.push('Replaces an earlier invitation to the same address.');
      break;
    case 'member.invitation_revoked':
      if (text(d.role)) lines.push(`It offered the role ${d.role}.`);
      break;
    case 'member.added':
      lines.push(`As ${text(d.role) ?? 'a member'}${text(d.invited_by) ? `, invited by ${userName(d.invited_by as string, names)}` : ''}.`);
      break;
    case 'member.role_changed':
      lines.push(`From ${text(d.from) ?? 'unknown'} to ${text(d.to) ?? 'unknown'}.`);
      break;
    case 'member.removed':
      if (text(d.reason)) lines.push(`Removed because ${REMOVAL_REASONS[d.reason as string] ?? d.reason}.`);
      else lines.push(`${d.left === true ? 'Left' : 'Was removed'}${text(d.role) ? ` as ${d.role}` : ''}.`);
      break;
    case 'identity.result': {
      const outcome = OUTCOMES[d.outcome as string] ?? text(d.outcome) ?? 'decided';
      const by = d.decided_by === 'operator' ? ' by an operator' : d.decided_by === 'automatic' ? ' automatically' : '';
      lines.push(`The check was ${outcome}${by}.`);
      const reasons = Array.isArray(d.reasons) ? d.reasons.filter((reason): reason is string => typeof reason === 'string') : [];
      if (reasons.length) lines.push(`Reasons: ${reasons.map((reason) => reason.replaceAll('_', ' ')).join(', ')}.`);
      break;
    }
    case 'password.reset': {
      const ended = typeof d.ended_sessions === 'number' ? d.ended_sessions : null;
      if (ended !== null) lines.push(ended === 0 ? 'No other session was open.' : `${ended} ${ended === 1 ? 'session' : 'sessions'} ended.`);
      break;
    }
    default: {
      // An action this page does not know yet: its detail as it came.
      const pairs = Object.entries(d).map(([name, value]) => `${name.replaceAll('_', ' ')}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
      if (pairs.length) lines.push(pairs.join('; '));
    }
  }
  return lines;
}

export function describeEntry(entry: AuditEntryLike, names: AuditNames): DescribedEntry {
  return {
    who: describeActor(entry.actor, names),
    what: ACTIONS[entry.action] ?? entry.action,
    on: describeTarget(entry, names),
    detail: describeDetail(entry, names),
  };
}
