// REST for an organisation's API keys, usage and audit log, for signed-in members by role
// (organisations/roles.ts): listing keys (never a secret), revoking and rotating them, the dashboard's own key
// (dashboard-keys.ts), requests and streams per key and day, and the audit log. Keys are created
// with `POST /v3/accounts/keys` (accounts.routes.ts).
import type { onRequestAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../platform/db/database.ts';
import type { App } from '../../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../../platform/http/pagination.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { identityRequired } from '../accounts.problems.ts';
import { listAudit } from '../audit/audit.ts';
import { DASHBOARD_KEY_NAME, type DashboardKeys } from './dashboard-keys.ts';
import type { IdentityChecks } from '../onboarding/identity-checks.ts';
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, type KeyListKey, type KeyStore } from './keys.ts';
import type { Members } from '../organisations/members.ts';
import { NOT_MEMBER_NOTE, notMember, organisationAccess, OrgParams } from '../organisations/organisation-access.ts';
import { CSRF_NOTE, SESSION_NOTE } from '../sessions/session-access.ts';
import { keyNotActive, keyNotFound } from '../organisations/organisations.problems.ts';
import { DEFAULT_USAGE_DAYS, MAX_USAGE_DAYS, pageUsage, utcDay, type UsageListKey } from './usage.ts';

const TAG = 'API keys';
const MS_PER_DAY = 86_400_000;

const Environment = Type.Enum(['development', 'production']);
const Time = Type.String({ format: 'date-time' });

const keyFields = {
  id: Type.String({ description: '`key_` and 16 letters or digits; not secret' }),
  org_id: Type.String(),
  name: Type.String(),
  environment: Environment,
  prefix: Type.String({ description: '`lamis_live_` or `lamis_test_`' }),
  last4: Type.String({ description: 'The last four characters of the secret' }),
  status: Type.Enum(['active', 'rotating', 'expired', 'revoked'], { description: '`rotating`: replaced by rotation, working until `overlap_until`' }),
  created_at: Time,
  created_by: nullable(Type.String({ description: 'The user who created it; null for keys made by an operator' })),
  last_used_at: nullable(Type.String({ format: 'date-time', description: 'Recorded at most once a minute' })),
  expires_at: nullable(Time),
  revoked_at: nullable(Time),
  rotated_from: nullable(Type.String({ description: 'The key this one replaced' })),
  overlap_until: nullable(Type.String({ format: 'date-time', description: 'Set once rotated: the key works until then' })),
};
const KeySchema = Shared('ApiKey', Type.Object(keyFields));

const KeyParams = Type.Object({ ...OrgParams.properties, keyId: Type.String({ maxLength: 64, description: 'The key id (`key_…`)' }) });

const UsageSchema = Type.Object({
  day: Type.String({ format: 'date', description: 'UTC day' }),
  key_id: Type.String(),
  key_name: Type.String(),
  environment: Environment,
  requests: Type.Integer({ description: 'Requests answered' }),
  streams: Type.Integer({ description: 'Streams opened' }),
});

const AuditSchema = Type.Object({
  id: Type.Integer({ description: 'Ascending in the order events happened' }),
  actor: Type.String({ description: '`user:<user id>`, `key:<key id>`, `operator` (the `lamis` commands) or `system`' }),
  action: Type.String({ description: 'e.g. `key.created`, `key.revoked`, `key.rotated`, `member.invited`, `member.added`, `member.role_changed`, `member.removed`, `plan.changed`, `identity.result`' }),
  target: Type.String({ description: 'The id of what the action was done to: a key, a user, an invitation, the organisation' }),
  detail: Type.Object({}, { additionalProperties: true, description: 'What changed, by action' }),
  at: Time,
});

const isPair = (key: unknown): key is readonly [string, string] =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

const keyMissing = (id: string) => new ProblemError(keyNotFound, `The organisation has no API key ${id}.`);

const KeyWithSecret = (description: string, secret = 'Shown only this once') => Type.Object({ ...keyFields, secret: Type.String({ description: secret }) }, { description });

export interface KeyRoutesDeps {
  database: Database;
  members: Members;
  keys: KeyStore;
  dashboardKeys: DashboardKeys;
  identity: IdentityChecks;
  /** `requireSession`, as the organisation routes have it. */
  guard: onRequestAsyncHookHandler;
}

export function registerKeyRoutes(app: App, deps: KeyRoutesDeps): void {
  const { members, keys, dashboardKeys, identity, database, guard } = deps;

  app.get('/v3/organisations/:orgId/keys', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_keys', 'see the API keys')],
    schema: {
      summary: 'The organisation\'s API keys (owners, admins and members)',
      description:
        'Newest first, cursor-paginated, revoked and expired keys included. Each shows its prefix and last four characters, never the secret. ' +
        `403 \`role_not_allowed\` for viewers; ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(KeySchema) },
    },
  }, async (request) => {
    const before: KeyListKey | undefined = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isPair);
    const page = await keys.pageKeys(request.params.orgId, { limit: request.query.limit!, before });
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.get('/v3/organisations/:orgId/keys/:keyId', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_keys', 'see the API keys')],
    schema: {
      summary: 'One API key of the organisation (owners, admins and members)',
      description: `Never the secret. 404 \`key_not_found\`; 403 \`role_not_allowed\` for viewers; ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: KeyParams,
      response: { 200: KeySchema },
    },
  }, async (request) => {
    const key = await keys.getKey(request.params.orgId, request.params.keyId);
    if (!key) throw keyMissing(request.params.keyId);
    return key;
  });

  app.post('/v3/organisations/:orgId/keys/:keyId/revoke', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'manage_keys', 'revoke API keys')],
    schema: {
      summary: 'Revoke an API key (owners and admins)',
      description:
        'The key stops working at once on this server, within 10 s on others; requests with it get 401 `unauthorized` with `reason` `revoked`. ' +
        'Revoking a revoked key answers it unchanged. Audited as `key.revoked`. ' +
        `404 \`key_not_found\`; 403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: KeyParams,
      response: { 200: KeySchema },
    },
  }, async (request) => {
    const { orgId, keyId } = request.params;
    const result = await keys.revokeKey(keyId, { actor: `user:${request.account!.user.id}`, orgId });
    if (result.status === 'not_found') throw keyMissing(keyId);
    return result.key;
  });

  app.post('/v3/organisations/:orgId/keys/:keyId/rotate', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'manage_keys', 'rotate API keys')],
    schema: {
      summary: 'Rotate an API key (owners and admins)',
      description:
        'Makes a new key with the same name, environment and expiry; its secret is in this answer only. The old key keeps working for `overlap_hours` ' +
        `(default ${DEFAULT_OVERLAP_HOURS}, at most ${MAX_OVERLAP_HOURS}; 0 stops it at once; send \`{}\` for the default), time to roll the new one out, then answers 401 \`revoked\`. ` +
        'Rotating a production key needs your identity verified, a development key your e-mail address (403 `identity_required`). ' +
        'Audited as `key.rotated` and `key.created`. 409 `key_not_active` for a key revoked, expired or rotated already; ' +
        `404 \`key_not_found\`; 403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: KeyParams,
      body: Type.Object({
        overlap_hours: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_OVERLAP_HOURS, default: DEFAULT_OVERLAP_HOURS, description: 'How long the old key keeps working' })),
      }),
      response: {
        201: Type.Object({
          key: KeyWithSecret('The new key'),
          previous: KeySchema,
        }, { description: 'The new key, and the old one (`previous`), working until its `overlap_until`' }),
      },
    },
  }, async (request, reply) => {
    const { user } = request.account!;
    const { orgId, keyId } = request.params;
    const key = await keys.getKey(orgId, keyId);
    if (!key) throw keyMissing(keyId);
    if (user.email_verified_at === null) throw new ProblemError(identityRequired, 'Verify your e-mail address before rotating API keys.');
    if (key.environment === 'production' && (await identity.status(user.id)) !== 'verified') {
      throw new ProblemError(identityRequired, 'Rotating a production key makes a new one, which needs your identity check verified.');
    }
    const result = await keys.rotateKey(keyId, request.body.overlap_hours!, { actor: `user:${user.id}`, orgId });
    if (result.status === 'not_found') throw keyMissing(keyId);
    if (result.status === 'not_active') {
      throw new ProblemError(keyNotActive, `Key ${keyId} is ${result.key.status}; only an active key can be rotated.`, { extra: { key_status: result.key.status } });
    }
    return reply.code(201).send({ key: { ...result.key, secret: result.secret }, previous: result.previous });
  });

  app.post('/v3/organisations/:orgId/dashboard-key', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'manage_keys', 'use a dashboard key')],
    schema: {
      summary: 'Your dashboard key in the organisation (owners and admins)',
      description:
        `The key the dashboard calls the data routes with: one per user and organisation, named \`${DASHBOARD_KEY_NAME}\`, made on the first call (audited as \`key.created\`) ` +
        'and answered as it is, secret included, to every later call from any of your sessions, so signing in again makes no key. ' +
        'Its secret is stored nowhere (the server derives it from the master key). A production key once your identity is verified, else a development key ' +
        '(the development one is then revoked); once older than a session may last (`LAMIS_SESSION_MAX_HOURS`), it is rotated and the old one works as long again. ' +
        'Revoke it like any key; the next call makes a new one. Needs your e-mail address verified (403 `identity_required`). ' +
        `403 \`role_not_allowed\` for members and viewers; ${NOT_MEMBER_NOTE}. ${CSRF_NOTE}`,
      tags: [TAG],
      params: OrgParams,
      response: { 200: KeyWithSecret('Your dashboard key', 'The same in every answer until the key is rotated or revoked') },
    },
  }, async (request) => {
    const { user } = request.account!;
    if (user.email_verified_at === null) throw new ProblemError(identityRequired, 'Verify your e-mail address before the dashboard can call the API for you.');
    const environment = (await identity.status(user.id)) === 'verified' ? 'production' : 'development';
    const result = await dashboardKeys.forUser(request.params.orgId, user.id, environment);
    // The organisation was deleted since the access check.
    if (result.status === 'org_not_found') throw notMember();
    return { ...result.key, secret: result.secret };
  });

  app.get('/v3/organisations/:orgId/usage', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_usage', 'see the usage')],
    schema: {
      summary: 'Requests and streams per API key and UTC day (owners, admins and members)',
      description:
        `From \`from\` to \`to\` (UTC days, both included; by default the last ${DEFAULT_USAGE_DAYS} days, today included; at most ${MAX_USAGE_DAYS} days), ` +
        'newest day first, then by key id; cursor-paginated. Days and keys without traffic are left out. Servers write their counts every 10 s. ' +
        `404 \`key_not_found\` for a \`key_id\` of no key of the organisation; 403 \`role_not_allowed\` for viewers; ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      querystring: Type.Object({
        from: Type.Optional(Type.String({ format: 'date', description: 'First UTC day, YYYY-MM-DD' })),
        to: Type.Optional(Type.String({ format: 'date', description: 'Last UTC day, YYYY-MM-DD; default today' })),
        key_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only this key' })),
        ...PageQuery,
      }),
      response: { 200: Type.Object({ from: Type.String({ format: 'date' }), to: Type.String({ format: 'date' }), ...Page(UsageSchema).properties }) },
    },
  }, async (request) => {
    const { orgId } = request.params;
    const { key_id, limit, cursor } = request.query;
    const to = request.query.to ?? utcDay(Date.now());
    const from = request.query.from ?? utcDay(Date.parse(to) - (DEFAULT_USAGE_DAYS - 1) * MS_PER_DAY);
    const days = (Date.parse(to) - Date.parse(from)) / MS_PER_DAY + 1;
    if (days < 1) throw invalidField('/querystring/from', `must not be after \`to\` (${to})`);
    if (days > MAX_USAGE_DAYS) throw invalidField('/querystring/from', `must be at most ${MAX_USAGE_DAYS} days before \`to\` (got ${days} days)`);
    if (key_id !== undefined && !(await keys.getKey(orgId, key_id))) throw keyMissing(key_id);
    const after: UsageListKey | undefined = cursor === undefined ? undefined : decodeCursor(cursor, isPair);
    const page = await pageUsage(database, orgId, { from, to, keyId: key_id, limit: limit!, after });
    return { from, to, data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  app.get('/v3/organisations/:orgId/audit-log', {
    config: { session: true },
    onRequest: [guard, organisationAccess(members, 'view_audit_log', 'read the audit log')],
    schema: {
      summary: 'The organisation\'s audit log (owners and admins)',
      description:
        'Security-relevant events, newest first, cursor-paginated: keys created, revoked and rotated; members invited, added, removed and their roles changed; ' +
        `invitations revoked; plan changes; identity check results. 403 \`role_not_allowed\`; ${NOT_MEMBER_NOTE}. ${SESSION_NOTE}.`,
      tags: [TAG],
      params: OrgParams,
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(AuditSchema) },
    },
  }, async (request) => {
    return listAudit(database, request.params.orgId, { limit: request.query.limit!, cursor: request.query.cursor });
  });
}
