// Test support for the account endpoints: a real server on SQLite, and on PostgreSQL when
// LAMIS_TEST_DATABASE_URL is set, with a loopback SMTP server for its mail; and a small browser
// stand-in that keeps the session cookie and CSRF token and says which address it calls from
// (the server trusts X-Forwarded-For here, so each test can be a client of its own).
import assert from 'node:assert/strict';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../src/config.ts';
import { freshPostgresSchema, postgresUrl, skipPostgres } from '../support/backends.ts';
import { json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { linksIn, startTestSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtp.ts';

export interface AccountsServer {
  server: TestServer;
  smtp: TestSmtpServer;
  /** The environment `lamis` needs to work on this server's storage. */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const ACCOUNT_BACKENDS: { name: string; skip: string | false; start(): Promise<AccountsServer> }[] = [
  { name: 'SQLite', skip: false, start: () => startAccountsServer({}, async () => {}) },
  {
    name: 'PostgreSQL',
    skip: skipPostgres,
    async start() {
      // The server opens storage from its settings alone, so the test schema goes in the URL.
      const { schema, drop } = await freshPostgresSchema();
      const url = new URL(postgresUrl!);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return startAccountsServer({ databaseUrl: url.toString() }, drop);
    },
  },
];

export async function startAccountsServer(config: Partial<Config>, dropStorage: () => Promise<void>, logger?: FastifyBaseLogger): Promise<AccountsServer> {
  const smtp = await startTestSmtpServer();
  const server = await startTestServer({ config: { ...config, smtpUrl: smtp.url(), trustProxy: true }, logger });
  const env: Record<string, string> = { LAMIS_DATA_DIR: server.config.dataDir };
  if (config.databaseUrl) env.DATABASE_URL = config.databaseUrl;
  return {
    server,
    smtp,
    env,
    async close() {
      await server.close();
      await smtp.close();
      await dropStorage();
    },
  };
}

let clients = 0;

/** The mails to `to` so far, once there are at least `count`. */
export async function mailsTo(smtp: TestSmtpServer, to: string, count = 1): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mails = smtp.received.filter((mail) => mail.envelopeTo.includes(to));
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export class Browser {
  readonly base: string;
  /** The address this client calls from (X-Forwarded-For). */
  readonly address: string;
  cookie: string | undefined;
  csrf: string | undefined;

  constructor(base: string) {
    this.base = base;
    if (++clients > 254) throw new Error('out of test addresses');
    this.address = `198.51.100.${clients}`;
  }

  /** Sends the cookie, the CSRF token and JSON bodies; keeps a cookie the server sets. */
  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(this.base + path, {
      method,
      headers: {
        'x-forwarded-for': this.address,
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.csrf ? { 'x-csrf-token': this.csrf } : {}),
        ...(body === undefined || Buffer.isBuffer(body) ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
    });
    const set = response.headers.get('set-cookie');
    if (set) {
      const value = /^lamis_session=([^;]*)/.exec(set)?.[1];
      this.cookie = value ? `lamis_session=${value}` : undefined;
    }
    return response;
  }

  async signUp(email: string, password = 'a long enough password', fullName = 'Anna Maria Eriksson'): Promise<any> {
    const response = await this.call('POST', '/v3/accounts/sign-up', { full_name: fullName, email, password });
    assert.equal(response.status, 201, await response.clone().text());
    const body = await json(response);
    this.csrf = body.csrf_token;
    return body;
  }

  async signIn(email: string, password: string): Promise<Response> {
    const response = await this.call('POST', '/v3/accounts/sessions', { email, password });
    if (response.status === 201) this.csrf = (await json(response.clone())).csrf_token;
    return response;
  }

  /** Onboarding steps 1 to 3, the link followed from the mail. */
  async onboard(smtp: TestSmtpServer, email: string, fullName = 'Anna Maria Eriksson'): Promise<any> {
    const account = await this.signUp(email, 'a long enough password', fullName);
    assert.equal((await this.call('PUT', '/v3/accounts/onboarding/vehicle', { vehicle_category: 'aircraft', country: 'SE' })).status, 200);
    assert.equal((await this.call('POST', '/v3/accounts/onboarding/email-verification')).status, 202);
    const [mail] = await mailsTo(smtp, email);
    assert.ok(mail, `no verification mail to ${email}`);
    assert.equal((await fetch(linksIn(mail.text ?? '')[0]!)).status, 200);
    return account;
  }
}

export async function problem(response: Response, status: number, code: string): Promise<any> {
  assert.equal(response.status, status, await response.clone().text());
  assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const body = await json(response);
  assert.equal(body.code, code);
  return body;
}
