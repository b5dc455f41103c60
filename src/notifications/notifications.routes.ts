// REST for e-mail about events: a signed-in member reads and sets how each severity of the
// organisation's events reaches them (their own choices only), and the unsubscribe link of every
// mail works without signing in: GET when followed, POST for one-click unsubscribing (RFC 8058).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { MemberGuard } from '../accounts/index.ts';
import { SEVERITIES } from '../events/index.ts';
import type { App } from '../platform/http/app.ts';
import { ProblemError } from '../platform/http/problems.ts';
import { textBodyRoutes } from '../platform/http/schema.ts';
import { unsubscribeLinkInvalid } from './notifications.problems.ts';
import { NotificationPreferencesChange, NotificationPreferencesSchema, UnsubscribedSchema, UnsubscribeQuery } from './notifications.schemas.ts';
import type { PreferenceStore, Preferences } from './preferences.ts';
import type { UnsubscribeTokens } from './unsubscribe.ts';

const TAG = 'Events';
const CHANGE_NOTE = 'Changes also need the session\'s `csrf_token` in the `X-CSRF-Token` header.';
const NO_STORE = { 'Cache-Control': 'no-store' };

export interface NotificationRouteOptions {
  guard: MemberGuard;
  preferences: PreferenceStore;
  tokens: UnsubscribeTokens;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page a person sees after following the link from a mail. */
function unsubscribedPage(turnedOff: readonly string[]): string {
  const what = turnedOff.length === SEVERITIES.length ? 'any events of this organisation' : `${turnedOff.join(', ')} events`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Unsubscribed - LAMIS</title></head>
<body>
<h1>Unsubscribed</h1>
<p>You will no longer get e-mail about ${escapeHtml(what)}. You can change this at any time in the LAMIS dashboard's notification settings.</p>
</body>
</html>
`;
}

export function registerNotificationRoutes(app: App, { guard, preferences, tokens }: NotificationRouteOptions): void {
  const admission = guard.requireMember('view_organisation', 'choose how events reach you');

  app.get('/v3/organisations/:orgId/notifications', {
    ...admission.options,
    schema: {
      summary: 'How events reach you by e-mail',
      description: `Your own choice per severity for this organisation's events: \`immediately\`, \`hourly\` (a digest) or \`off\`; without a choice, critical events come immediately, warnings hourly and info not at all. Mail goes only to a verified address. ${admission.note}`,
      tags: [TAG],
      params: Type.Object(guard.params),
      response: { 200: NotificationPreferencesSchema },
    },
  }, async (request) => {
    const orgId = guard.organisationOf(request);
    return { organisation_id: orgId, ...(await preferences.get(orgId, request.account!.user.id)) };
  });

  app.put('/v3/organisations/:orgId/notifications', {
    ...admission.options,
    schema: {
      summary: 'Choose how events reach you by e-mail',
      description: `Sets the severities given and keeps the others; answers all three. ${admission.note} ${CHANGE_NOTE}`,
      tags: [TAG],
      params: Type.Object(guard.params),
      body: NotificationPreferencesChange,
      response: { 200: NotificationPreferencesSchema },
    },
  }, async (request) => {
    const orgId = guard.organisationOf(request);
    return { organisation_id: orgId, ...(await preferences.set(orgId, request.account!.user.id, request.body)) };
  });

  /** Turns off what the token names; answers a page to a browser, JSON otherwise. */
  async function unsubscribe(request: FastifyRequest<{ Querystring: { token: string } }>, reply: FastifyReply) {
    reply.headers(NO_STORE);
    const unsubscribing = tokens.read(request.query.token);
    if (!unsubscribing) throw new ProblemError(unsubscribeLinkInvalid, 'This unsubscribe link was not made by LAMIS, or was changed; use the link from the mail as it came.');
    const { userId, orgId, scope } = unsubscribing;
    const turnedOff = scope === 'all' ? [...SEVERITIES] : [scope];
    const off: Partial<Preferences> = Object.fromEntries(turnedOff.map((severity) => [severity, 'off']));
    const now = await preferences.set(orgId, userId, off);
    if (/\btext\/html\b/.test(request.headers.accept ?? '')) return reply.type('text/html; charset=utf-8').send(unsubscribedPage(turnedOff));
    return { organisation_id: orgId, turned_off: turnedOff, preferences: { organisation_id: orgId, ...now } };
  }

  const unsubscribeSchema = (summary: string, description: string) => ({
    summary,
    description: `${description} Needs no sign-in: the link's token names the member, the organisation and the severity (or all), signed by LAMIS. 400 \`unsubscribe_link_invalid\` for a token it did not sign or that was changed.`,
    tags: [TAG],
    querystring: UnsubscribeQuery,
    response: { 200: UnsubscribedSchema },
  });

  app.get('/v3/notifications/unsubscribe', {
    config: { public: true },
    schema: unsubscribeSchema('Follow an unsubscribe link', 'Turns off the e-mail the link names. A browser (`Accept: text/html`) gets a short page, other clients JSON.'),
  }, unsubscribe);

  // Mail clients post `List-Unsubscribe=One-Click` as a form; the token is in the address.
  textBodyRoutes(app, { types: ['application/x-www-form-urlencoded'], bodyLimit: 1024 }, (scope) => {
    scope.post('/v3/notifications/unsubscribe', {
      config: { public: true },
      schema: unsubscribeSchema('Unsubscribe in one click (RFC 8058)', 'What a mail client posts for the `List-Unsubscribe` header of an event mail, with the body `List-Unsubscribe=One-Click`.'),
    }, unsubscribe);
  });
}
