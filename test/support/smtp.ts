// Test support: a real SMTP server (smtp-server) on a loopback port that keeps what it receives,
// and a reader for the MIME that nodemailer writes, so a test can follow a link from a mail.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream } from 'smtp-server';

export interface ReceivedMail {
  /** The envelope (MAIL FROM, RCPT TO), which may differ from the headers. */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The user that authenticated, when the server asked for credentials. */
  user: string | undefined;
  /** Lower-case header names, folded lines joined. */
  headers: Map<string, string>;
  /** The decoded text/plain and text/html parts, line ends as `\n`. */
  text: string | undefined;
  html: string | undefined;
}

export interface TestSmtpServerOptions {
  /** Require AUTH with exactly these; without them the server takes mail from anyone. */
  credentials?: { user: string; password: string };
  /** Addresses refused at RCPT TO with 550. */
  refuse?: string[];
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:PORT`, with the credentials given here (percent-encoded). */
  url(credentials?: { user: string; password: string }): string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function decodeBody(body: string, encoding: string): string {
  let decoded = body;
  if (encoding === 'quoted-printable') {
    // Escapes are bytes of UTF-8: collect them as latin1 characters, then read the bytes as UTF-8.
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    decoded = Buffer.from(bytes, 'latin1').toString('utf8');
  } else if (encoding === 'base64') {
    decoded = Buffer.from(body, 'base64').toString('utf8');
  }
  return decoded.replace(/\r\n/g, '\n');
}

function readParts(headers: Map<string, string>, body: string, into: { text?: string; html?: string }): void {
  const type = (headers.get('content-type') ?? 'text/plain').toLowerCase();
  const boundary = /boundary="?([^";]+)"?/i.exec(headers.get('content-type') ?? '')?.[1];
  if (type.startsWith('multipart/') && boundary) {
    // Between the first delimiter and the closing one; the CRLF before each delimiter is its own.
    for (const section of body.split(`--${boundary}`).slice(1, -1)) {
      const part = section.replace(/^\r\n/, '').replace(/\r\n$/, '');
      const split = part.indexOf('\r\n\r\n');
      readParts(parseHeaders(part.slice(0, split)), part.slice(split + 4), into);
    }
    return;
  }
  const content = decodeBody(body.replace(/\r\n$/, ''), (headers.get('content-transfer-encoding') ?? '7bit').toLowerCase());
  if (type.startsWith('text/html')) into.html ??= content;
  else if (type.startsWith('text/plain')) into.text ??= content;
}

/** The http(s) links in a text, in order. */
export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}

function readAll(stream: SMTPServerDataStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    stream.on('error', reject);
  });
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

export async function startTestSmtpServer(options: TestSmtpServerOptions = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const { credentials, refuse = [] } = options;
  const server = new SMTPServer({
    logger: false,
    // smtp-server's built-in certificate has expired, so the test server speaks plain SMTP only.
    disabledCommands: credentials ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    allowInsecureAuth: true,
    authOptional: !credentials,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.password) {
        callback(null, { user: auth.username });
      } else {
        callback(smtpError('Invalid username or password', 535));
      }
    },
    onRcptTo(address, _session, callback) {
      callback(refuse.includes(address.address) ? smtpError('No such user here', 550) : null);
    },
    onData(stream, session, callback) {
      readAll(stream).then((raw) => {
        const split = raw.indexOf('\r\n\r\n');
        const headers = parseHeaders(raw.slice(0, split));
        const parts: { text?: string; html?: string } = {};
        readParts(headers, raw.slice(split + 4), parts);
        const { mailFrom, rcptTo } = session.envelope;
        received.push({
          envelopeFrom: mailFrom ? mailFrom.address : '',
          envelopeTo: rcptTo.map((r) => r.address),
          user: session.user as string | undefined,
          headers,
          text: parts.text,
          html: parts.html,
        });
        callback();
      }, callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: (auth) => `smtp://${auth ? `${encodeURIComponent(auth.user)}:${encodeURIComponent(auth.password)}@` : ''}127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
