// E-mail about events, end to end: a real server (its routes: members' choices, unsubscribe links)
// with a loopback SMTP server, and two more instances of the notifications on the same storage,
// each with its own connection, both receiving every change as instances do on Redis (one
// in-process bus with two subscribers, or two Redis buses when LAMIS_TEST_REDIS_URL is set).
// Time is an injected clock, in an hour the server's own digest timer never reaches.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openMemberDirectory } from '../../src/accounts/index.ts';
import { eventChanges, EventStore, type NewEvent } from '../../src/events/index.ts';
import { DigestSender } from '../../src/notifications/digest.ts';
import type { MailLinks } from '../../src/notifications/mails.ts';
import { EventNotifier } from '../../src/notifications/notifier.ts';
import { PreferenceStore } from '../../src/notifications/preferences.ts';
import { pruneMailed } from '../../src/notifications/retention.ts';
import { UnsubscribeTokens } from '../../src/notifications/unsubscribe.ts';
import { openBus, type Bus } from '../../src/platform/bus/index.ts';
import { masterKey } from '../../src/platform/crypto/index.ts';
import { openDatabase, type Database } from '../../src/platform/db/database.ts';
import { newId } from '../../src/platform/ids.ts';
import { SmtpMailer } from '../../src/platform/mail/index.ts';
import { onboarded, type Member } from '../accounts/members-support.ts';
import { ACCOUNT_BACKENDS, problem, type AccountsServer } from '../accounts/support.ts';
import { redisUrl, uniqueName } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { linksIn, type ReceivedMail } from '../support/smtp.ts';

interface Instance {
  database: Database;
  bus: Bus;
  notifier: EventNotifier;
  digests: DigestSender;
  received: number;
  unsubscribe(): Promise<void>;
}

const critical = (id: string, summary: string): NewEvent => ({
  kind: 'vessel.encounter', severity: 'critical', subject: { type: 'vessel', id }, summary, data: { distance_m: 40 },
});
const warning = (id: string, summary: string): NewEvent => ({ ...critical(id, summary), kind: 'vessel.ais_gap', severity: 'warning' });

async function seedMember(database: Database, orgId: string, name: string, verified: boolean): Promise<{ id: string; email: string }> {
  const id = newId('usr');
  const email = `${name.toLowerCase()}.${id.slice(-6)}@example.com`;
  const at = '2030-01-01T00:00:00.000Z';
  await database.db.insertInto('users').values({
    id, email, email_key: email, full_name: `${name} Tester`, password_hash: 'not used', duplicate_of: null,
    email_verified_at: verified ? at : null, vehicle_category: null, country: null, default_feeds: null, password_changed_at: at, created_at: at,
  }).execute();
  await database.db.insertInto('memberships').values({ org_id: orgId, user_id: id, role: 'member', created_at: at }).execute();
  return { id, email };
}

for (const backend of ACCOUNT_BACKENDS) {
  describe(`e-mail about events on ${backend.name}${redisUrl ? ' with Redis' : ''}`, { skip: backend.skip }, () => {
    let accounts: AccountsServer;
    let anna: Member;
    let org: string;
    let otherOrg: string;
    let seeding: Database;
    let store: EventStore;
    const people = {} as Record<'ben' | 'carl' | 'dora' | 'erik', { id: string; email: string }>;
    const instances: Instance[] = [];
    let clock = new Date('2030-01-07T14:05:00.000Z');
    const now = () => clock;

    /** Event mails (not the onboarding ones) to `email`. */
    const eventMailsTo = (email: string): ReceivedMail[] =>
      accounts.smtp.received.filter((mail) => mail.envelopeTo.includes(email) && mail.headers.has('list-unsubscribe'));

    /** Waits until every instance has received `published` changes in all, then until each has handled them. */
    async function settled(published: number): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (instances.some((instance) => instance.received < published)) {
        assert.ok(Date.now() < deadline, `the instances received ${instances.map((i) => i.received).join(' and ')} of ${published} changes`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await Promise.all(instances.map((instance) => instance.notifier.idle()));
    }

    before(async () => {
      accounts = await backend.start();
      anna = await onboarded(accounts, 'anna');
      org = anna.ownOrgId;
      const config = accounts.server.config;
      seeding = openDatabase(config);
      people.ben = await seedMember(seeding, org, 'Ben', true);
      people.carl = await seedMember(seeding, org, 'Carl', true);
      people.dora = await seedMember(seeding, org, 'Dora', false);
      otherOrg = newId('org');
      await seeding.db.insertInto('organisations').values({ id: otherOrg, name: 'Other Harbour', plan: 'starter', created_at: '2030-01-01T00:00:00.000Z' }).execute();
      people.erik = await seedMember(seeding, otherOrg, 'Erik', true);
      const preferences = new PreferenceStore(seeding);
      await preferences.set(org, people.ben.id, { critical: 'hourly' });
      await preferences.set(org, people.carl.id, { critical: 'off', warning: 'off' });

      // The server's master key, so the links these instances mail work on the server.
      const tokens = new UnsubscribeTokens(masterKey({ fromEnv: config.masterKey, dataDir: config.dataDir }).key);
      const links: MailLinks = {
        event: (eventId) => `${accounts.server.url}/events/${eventId}`,
        unsubscribe: (userId, orgId, scope) => `${accounts.server.url}/v3/notifications/unsubscribe?token=${tokens.issue({ userId, orgId, scope })}`,
      };
      const prefix = `${uniqueName('lamis_test')}:`;
      const shared = redisUrl ? undefined : await openBus({ redisUrl: undefined }, (error) => assert.fail(String(error)));
      for (let i = 0; i < 2; i++) {
        const database = openDatabase(config);
        const bus = shared ?? await openBus({ redisUrl }, (error) => assert.fail(String(error)), prefix);
        const options = {
          database, directory: openMemberDirectory(database), preferences: new PreferenceStore(database),
          mailer: new SmtpMailer(database, { url: accounts.smtp.url() }), links, logger: { warn: (detail: object) => assert.fail(JSON.stringify(detail)) }, now,
        };
        const instance = { database, bus, notifier: new EventNotifier(options), digests: new DigestSender(options), received: 0, unsubscribe: async () => {} };
        instance.unsubscribe = await bus.subscribe(eventChanges, (change) => {
          instance.received += 1;
          instance.notifier.receive(change);
        });
        instances.push(instance);
      }
      store = new EventStore(instances[0]!.database, instances[0]!.bus, now);
    });

    after(async () => {
      for (const instance of instances) {
        await instance.unsubscribe();
        await instance.notifier.idle();
        await instance.bus.close();
        await instance.database.close();
      }
      await seeding?.close();
      await accounts?.close();
    });

    test('a member reads and sets how each severity reaches them; bad input names the field', async () => {
      const path = `/v3/organisations/${org}/notifications`;
      assert.deepEqual(await json(await anna.browser.call('GET', path)), { organisation_id: org, info: 'off', warning: 'hourly', critical: 'immediately' });
      const set = await anna.browser.call('PUT', path, { info: 'hourly' });
      assert.equal(set.status, 200, await set.clone().text());
      assert.deepEqual(await json(set), { organisation_id: org, info: 'hourly', warning: 'hourly', critical: 'immediately' });
      assert.equal((await json(await anna.browser.call('PUT', path, { info: 'off' }))).info, 'off');

      const bad = await problem(await anna.browser.call('PUT', path, { critical: 'sometimes' }), 400, 'validation_failed');
      assert.deepEqual(bad.errors, [{ path: '/body/critical', message: 'must be equal to one of the allowed values' }]);
      assert.match((await problem(await anna.browser.call('PUT', path, { colour: 'red' }), 400, 'validation_failed')).detail, /additional properties/);
      await problem(await anna.browser.call('PUT', path, {}), 400, 'validation_failed');
      await problem(await anna.browser.call('PUT', path, { info: 'off' }, { 'x-csrf-token': 'not the token' }), 403, 'csrf_token_invalid');
      // Another organisation's path answers as one that does not exist.
      await problem(await anna.browser.call('GET', `/v3/organisations/${otherOrg}/notifications`), 404, 'organisation_not_found');
      await problem(await anna.browser.call('PUT', `/v3/organisations/${otherOrg}/notifications`, { info: 'off' }), 404, 'organisation_not_found');
    });

    test('an opened critical event mails the members who want it at once, once, though two instances receive it', async () => {
      const { event } = await store.open(org, critical('235000001', 'Vessels 235000001 and 235000002 are 40 m apart.'));
      await settled(1);
      const [mail, ...more] = eventMailsTo(anna.email);
      assert.ok(mail, 'no event mail to the member who wants critical events at once');
      assert.equal(more.length, 0);
      assert.match(mail.headers.get('subject')!, /New critical event: Vessels 235000001 and 235000002 are 40 m apart\.$/);
      assert.match(mail.text!, /Vessels 235000001 and 235000002 are 40 m apart\./);
      assert.ok(linksIn(mail.text!).includes(`${accounts.server.url}/events/${event.id}`));
      assert.match(mail.headers.get('list-unsubscribe')!, /^<http:\/\/127\.0\.0\.1:\d+\/v3\/notifications\/unsubscribe\?token=[\w-]+\.[\w-]+>$/);
      assert.equal(mail.headers.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
      for (const other of [people.ben, people.carl, people.dora, people.erik]) assert.deepEqual(eventMailsTo(other.email), [], other.email);
    });

    test('another organisation\'s members hear only of their own events, and events of a key outside any organisation mail nobody', async () => {
      await store.open(otherOrg, critical('235000009', 'Vessels 235000009 and 235000010 are 40 m apart.'));
      await store.open('key_outside0000000001', critical('235000011', 'Vessels 235000011 and 235000012 are 40 m apart.'));
      await settled(3);
      const [mail, ...more] = eventMailsTo(people.erik.email);
      assert.ok(mail);
      assert.equal(more.length, 0);
      assert.match(mail.text!, /235000009/);
      assert.equal(eventMailsTo(anna.email).length, 1);
      assert.equal(accounts.smtp.received.filter((m) => /235000011/.test(m.text ?? '')).length, 0);
    });

    test('the hourly digest collects the changes of an hour into one mail per member, sent once', async () => {
      const opened = (await store.open(org, critical('235000001', 'unused'))).event; // already open: no change
      clock = new Date('2030-01-07T14:20:00.000Z');
      const gap = (await store.open(org, warning('235000003', 'Vessel 235000003 has sent no position for 20 minutes.'))).event;
      await settled(4);
      clock = new Date('2030-01-07T14:40:00.000Z');
      await store.update(org, gap.id, { severity: 'critical', summary: 'Vessel 235000003 has sent no position for 40 minutes.' });
      await settled(5);
      clock = new Date('2030-01-07T14:50:00.000Z');
      await store.clear(org, opened.id);
      await settled(6);

      // Anna wants critical changes at once: the escalation and the clearing of the event she heard of.
      const annas = eventMailsTo(anna.email).map((mail) => mail.headers.get('subject'));
      assert.equal(annas.length, 3);
      assert.match(annas[1]!, /Escalated to critical: Vessel 235000003 has sent no position for 40 minutes\.$/);
      assert.match(annas[2]!, /Cleared: Vessels 235000001 and 235000002 are 40 m apart\.$/);

      clock = new Date('2030-01-07T14:59:59.000Z');
      assert.deepEqual(await Promise.all(instances.map((i) => i.digests.sendDue())), [0, 0]);
      clock = new Date('2030-01-07T15:01:00.000Z');
      const sent = await Promise.all(instances.map((i) => i.digests.sendDue()));
      assert.equal(sent[0]! + sent[1]!, 2, `digests sent: ${sent.join(' and ')}`);
      assert.deepEqual(await Promise.all(instances.map((i) => i.digests.sendDue())), [0, 0]);

      const [bens, ...moreOfBens] = eventMailsTo(people.ben.email);
      assert.ok(bens, 'no digest to the member who wants critical events hourly');
      assert.equal(moreOfBens.length, 0);
      assert.match(bens.headers.get('subject')!, /4 event changes from 2030-01-07 14:00 UTC to 15:00 UTC$/);
      const lines = bens.text!.split('\n').filter((line) => /^\d\d:\d\d {2}/.test(line));
      assert.deepEqual(lines, [
        '14:05  New critical event: Vessels 235000001 and 235000002 are 40 m apart.',
        '14:20  New warning event: Vessel 235000003 has sent no position for 20 minutes.',
        '14:40  Escalated to critical: Vessel 235000003 has sent no position for 40 minutes.',
        '14:50  Cleared: Vessels 235000001 and 235000002 are 40 m apart.',
      ]);
      // Warnings reach Anna hourly by default: the opening of the gap.
      const digestOfAnna = eventMailsTo(anna.email)[3];
      assert.ok(digestOfAnna);
      assert.match(digestOfAnna.headers.get('subject')!, /1 event change from/);
      assert.match(digestOfAnna.text!, /14:20 {2}New warning event: Vessel 235000003/);
      for (const other of [people.carl, people.dora]) assert.deepEqual(eventMailsTo(other.email), [], other.email);
    });

    test('retention deletes the lines of events no longer open and the digests sent; an open event\'s lines stay, so its clearing still reaches who heard of it', async () => {
      const lines = async (subject: string) => Number((await seeding.db.selectFrom('notification_lines')
        .innerJoin('events', 'events.id', 'notification_lines.event_id').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('events.org_id', '=', org).where('events.subject_id', '=', subject).executeTakeFirstOrThrow()).n);
      const digests = async () => Number((await seeding.db.selectFrom('notification_digests').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('org_id', '=', org).executeTakeFirstOrThrow()).n);
      assert.ok(await lines('235000001') > 0 && await lines('235000003') > 0 && await digests() > 0);
      clock = new Date('2030-05-01T00:00:00.000Z');
      const pruned = await pruneMailed(seeding, new Date('2030-01-08T00:00:00.000Z'));
      assert.ok(pruned.lines > 0 && pruned.digests >= 2, JSON.stringify(pruned));
      assert.equal(await lines('235000001'), 0, 'the cleared event\'s');
      assert.equal(await digests(), 0);
      assert.ok(await lines('235000003') > 0, 'the open event\'s');
      const gap = await store.findOpen(org, 'vessel.ais_gap', warning('235000003', '').subject);
      await store.clear(org, gap!.id);
      await settled(7);
      assert.match(eventMailsTo(anna.email).at(-1)!.headers.get('subject')!, /Cleared: Vessel 235000003 has sent no position for 40 minutes\.$/);
    });

    test('the unsubscribe link turns mail off without signing in; a changed or forged one is refused', async () => {
      const [first] = eventMailsTo(anna.email);
      const link = /^<(.*)>$/.exec(first!.headers.get('list-unsubscribe')!)![1]!;
      const token = new URL(link).searchParams.get('token')!;
      const [payload, signature] = token.split('.') as [string, string];
      const forAll = Buffer.from(JSON.stringify([anna.userId, org, 'all'])).toString('base64url');
      const otherSignature = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
      for (const bad of [`${forAll}.${signature}`, `${payload}.${otherSignature}`, payload, `${payload}.${signature}.x`, 'nonsense']) {
        const url = new URL(link);
        url.searchParams.set('token', bad);
        await problem(await fetch(url), 400, 'unsubscribe_link_invalid');
      }
      const path = `/v3/organisations/${org}/notifications`;
      assert.equal((await json(await anna.browser.call('GET', path))).critical, 'immediately');

      const page = await fetch(link, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /no longer get e-mail about critical events/);
      assert.deepEqual(await json(await anna.browser.call('GET', path)), { organisation_id: org, info: 'off', warning: 'hourly', critical: 'off' });

      // One click (RFC 8058) on the link that stops everything.
      const all = linksIn(first!.text!).find((l) => l !== link && l.includes('/v3/notifications/unsubscribe'))!;
      const clicked = await fetch(all, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
      assert.equal(clicked.status, 200, await clicked.clone().text());
      assert.deepEqual((await json(clicked)).turned_off, ['info', 'warning', 'critical']);

      const before = eventMailsTo(anna.email).length;
      clock = new Date('2030-01-07T15:10:00.000Z');
      await store.open(org, critical('235000020', 'Vessels 235000020 and 235000021 are 40 m apart.'));
      await settled(7);
      assert.equal(eventMailsTo(anna.email).length, before);
    });
  });
}
