// Server-side fetches of addresses users give (link previews, images on other sites, outgoing webhooks): one
// guarded fetcher for all of them. It refuses any address that is not public unicast — private, loopback,
// link-local, unique-local, multicast, carrier-grade NAT, unspecified, reserved, IPv4 mapped into IPv6 — as
// resolved by DNS, and connects to exactly the address it checked (no second lookup a DNS answer could
// change). Redirects are followed by hand, each hop checked again. Responses are bounded in size and the
// whole fetch in time. Hosts or ranges listed in PARLANCE_FETCH_ALLOWED_HOSTS may be reached though private.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';

export interface AllowList {
  hosts: Set<string>;
  ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

// "intranet.example, 10.0.0.0/8, 192.168.1.5, fd00::/8": names match the host as written; addresses and
// ranges match what a host resolves to.
export function parseAllowList(spec: string | undefined): AllowList {
  const list: AllowList = { hosts: new Set(), ranges: [] };
  for (const raw of (spec ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) {
    if (raw.includes('/') && ipaddr.isValidCIDR(raw)) list.ranges.push(ipaddr.parseCIDR(raw));
    else if (ipaddr.isValid(raw)) {
      const addr = ipaddr.parse(raw);
      list.ranges.push([addr, addr.kind() === 'ipv4' ? 32 : 128]);
    } else list.hosts.add(raw.replace(/^\[|\]$/g, ''));
  }
  return list;
}

const normalized = (address: string) => {
  const addr = ipaddr.parse(address);
  return addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress() ? (addr as ipaddr.IPv6).toIPv4Address() : addr;
};

// Only ordinary public addresses; an IPv4 address mapped into IPv6 is judged as the IPv4 address.
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return normalized(address).range() === 'unicast';
}

function allowedAddress(address: string, allow: AllowList): boolean {
  if (isPublicAddress(address)) return true;
  const addr = normalized(address);
  return allow.ranges.some(([range, bits]) => range.kind() === addr.kind() && addr.match(range as never, bits));
}

export class FetchRefused extends Error {
  constructor(message: string, readonly reason: 'address' | 'scheme' | 'size' | 'time' | 'redirects' | 'network' | 'status') {
    super(message);
  }
}

export interface GuardedFetchOptions {
  method?: 'GET' | 'HEAD' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  // Largest response body accepted (bytes): a larger one is refused, not cut.
  maxBytes?: number;
  // The whole fetch, redirects included.
  timeoutMs?: number;
  maxRedirects?: number;
  allow?: AllowList;
}

export interface GuardedResponse {
  url: string; // after redirects
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export const FETCH_DEFAULTS = { maxBytes: 5 * 1024 * 1024, timeoutMs: 10_000, maxRedirects: 5 };

const defaultAllow = parseAllowList(process.env.PARLANCE_FETCH_ALLOWED_HOSTS);

// The allowed hosts and one more: a host the operator configured (the push bouncer), which may be private.
export function allowingHost(host: string): AllowList {
  return parseAllowList(`${process.env.PARLANCE_FETCH_ALLOWED_HOSTS ?? ''},${host}`);
}

// DNS lookup for the connection: every address the name has must be allowed, so that a name cannot hide a
// private address among public ones.
function guardedLookup(host: string, allow: AllowList): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: (options as dns.LookupOptions).family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => !allow.hosts.has(host) && !allowedAddress(a.address, allow));
      if (bad || !addresses.length) {
        return callback(new FetchRefused(`Refusing to fetch ${host}: it resolves to a non-public address`, 'address'), '', 0);
      }
      if ((options as dns.LookupOptions).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

function checkUrl(url: URL, allow: AllowList): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchRefused(`Refusing to fetch ${url.protocol} addresses`, 'scheme');
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (net.isIP(host) && !allow.hosts.has(host) && !allowedAddress(host, allow)) {
    throw new FetchRefused(`Refusing to fetch ${host}: not a public address`, 'address');
  }
}

function once(url: URL, opts: GuardedFetchOptions, allow: AllowList, signal: AbortSignal, maxBytes: number): Promise<GuardedResponse> {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, {
      method: opts.method ?? 'GET',
      // A body goes with its length (not chunked): some servers, the push bouncer's among them, refuse chunked posts.
      headers: { 'user-agent': 'Parlance link preview', ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}), ...opts.headers },
      lookup: guardedLookup(host, allow),
      signal,
      agent: false,
    }, (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > maxBytes) {
        res.destroy();
        return reject(new FetchRefused(`Response larger than ${maxBytes} bytes`, 'size'));
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          res.destroy();
          reject(new FetchRefused(`Response larger than ${maxBytes} bytes`, 'size'));
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => resolve({ url: url.href, status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', (err) => reject(err instanceof FetchRefused ? err : signal.aborted ? new FetchRefused('Fetch timed out', 'time') : new FetchRefused(err.message, 'network')));
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

export async function guardedFetch(address: string, opts: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const allow = opts.allow ?? defaultAllow;
  const maxBytes = opts.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const maxRedirects = opts.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? FETCH_DEFAULTS.timeoutMs);
  try {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      throw new FetchRefused('Not an address', 'scheme');
    }
    for (let hop = 0; ; hop++) {
      checkUrl(url, allow);
      const res = await once(url, hop ? { ...opts, method: 'GET', body: undefined } : opts, allow, controller.signal, maxBytes);
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || res.status === 304 || !location) return res;
      if (hop >= maxRedirects) throw new FetchRefused('Too many redirects', 'redirects');
      url = new URL(location, url);
    }
  } catch (err) {
    if (controller.signal.aborted && !(err instanceof FetchRefused && err.reason !== 'network')) throw new FetchRefused('Fetch timed out', 'time');
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
