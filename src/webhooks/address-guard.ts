// What webhook requests may reach: customers choose the URLs, so without a guard LAMIS would call
// into its own network for them (server-side request forgery). Only https, and only public
// addresses: loopback, private, link-local (cloud metadata at 169.254.169.254 included), CGNAT,
// unique-local (fd00:ec2::254 included), multicast and reserved ranges are refused. The check is
// made on the addresses a name resolves to at the moment of connecting, in the socket's own
// `lookup`, so a name that answers a public address to a first look-up and a private one to the
// next (DNS rebinding) cannot pass; URLs naming an address are checked before every attempt.
// LAMIS_WEBHOOK_ALLOW_PRIVATE lifts both rules, for installations on a private network and tests.
import { lookup as resolve, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

const BLOCKED: [reason: string, ranges: [network: string, prefix: number][]][] = [
  ['a loopback address', [['127.0.0.0', 8], ['::1', 128]]],
  ['a private address', [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]]],
  ['a link-local address (cloud metadata lives there)', [['169.254.0.0', 16], ['fe80::', 10]]],
  ['a carrier-grade NAT address', [['100.64.0.0', 10]]],
  ['a unique-local address', [['fc00::', 7]]],
  ['a multicast address', [['224.0.0.0', 4], ['ff00::', 8]]],
  ['a reserved address', [['0.0.0.0', 8], ['192.0.0.0', 24], ['192.0.2.0', 24], ['198.18.0.0', 15], ['198.51.100.0', 24],
    ['203.0.113.0', 24], ['240.0.0.0', 4], ['::', 128], ['64:ff9b:1::', 48], ['2001:db8::', 32], ['100::', 64]]],
];

const blockLists = BLOCKED.map(([reason, ranges]) => {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
  return { reason, list };
});

/** Why webhooks may not reach this address, or null when they may. */
export function addressRefusal(address: string): string | null {
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is the IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  const family = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
  return blockLists.find(({ list }) => list.check(ip, family))?.reason ?? null;
}

/** A webhook request was refused before it left: the URL or the address it resolved to is not allowed. */
export class AddressRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefusedError';
  }
}

/** The URL's host without the brackets of an IPv6 literal. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why a URL may not be a webhook endpoint, as far as can be told without resolving its name: the
 * scheme, credentials in it, an address that is not allowed. Null when it may be.
 */
export function urlRefusal(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (url.username || url.password) return 'must not carry credentials; the signature authenticates LAMIS';
  const host = hostOf(url);
  if (allowPrivate || isIP(host) === 0) return null;
  const refusal = addressRefusal(host);
  return refusal && `names ${host}, ${refusal}, which webhooks may not reach`;
}

/** A socket `lookup` that refuses a name when any address it resolves to is not allowed. */
function guardedLookup(): LookupFunction {
  return ((hostname: string, options: LookupOneOptions | LookupAllOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const refused = addresses.map((entry) => ({ address: entry.address, reason: addressRefusal(entry.address) })).find((entry) => entry.reason);
      if (refused) return callback(new AddressRefusedError(`${hostname} resolves to ${refused.address}, ${refused.reason}, which webhooks may not reach`));
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return first ? callback(null, first.address, first.family) : callback(new AddressRefusedError(`${hostname} resolves to no address`));
    });
  }) as LookupFunction;
}

/** 1xx aside, the statuses whose answers have no body (a Response refuses one for them). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A `fetch` for `readAnswer` that goes through the guard: node:http(s) with the guarded lookup,
 * no connection reuse (each request resolves anew) and no redirects followed (a 3xx is an answer
 * like any other, and not a 2xx).
 */
export function guardedFetch(allowPrivate: boolean): typeof fetch {
  const lookup = allowPrivate ? undefined : guardedLookup();
  return ((input: string | URL, init: RequestInit = {}) => new Promise<Response>((answer, reject) => {
    const url = new URL(String(input));
    const refusal = urlRefusal(url, allowPrivate);
    if (refusal) return reject(new AddressRefusedError(`${url.origin} ${refusal}`));
    const transport = url.protocol === 'https:' ? https : http;
    const request = transport.request(url, {
      method: init.method ?? 'GET',
      headers: init.headers as Record<string, string> | undefined,
      signal: init.signal ?? undefined,
      agent: false,
      lookup,
    }, (response) => {
      const status = response.statusCode ?? 0;
      if (status < 200 || status > 599) {
        response.destroy();
        return reject(new Error(`the answer has no usable HTTP status (${status})`));
      }
      const headers = new Headers();
      for (let i = 0; i < response.rawHeaders.length; i += 2) headers.append(response.rawHeaders[i]!, response.rawHeaders[i + 1]!);
      if (NO_BODY.has(status)) response.resume();
      answer(new Response(NO_BODY.has(status) ? null : (Readable.toWeb(response) as ReadableStream), { status, statusText: response.statusMessage, headers }));
    });
    request.on('error', reject);
    request.end(init.body as string | undefined);
  })) as typeof fetch;
}
