// A small HTTP client that sends parameters the way the real client libraries do: query string for GET,
// urlencoded bodies (Python library) or multipart bodies (JavaScript library) otherwise.
export type Encoding = 'urlencoded' | 'multipart' | 'query';

import http from 'node:http';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: any;
  text: string;
  method?: string; // of the request, for assertions that depend on the endpoint
  path?: string;
}

export interface RequestOptions {
  encoding?: Encoding;
  headers?: Record<string, string>;
  root?: boolean;
  localAddress?: string;
}

// Anything: strings go raw, every other value JSON-encoded (nulls and undefined are left out).
export type ParamValue = unknown;

function encodeValue(v: ParamValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly auth?: { email: string; apiKey: string },
    readonly encoding: Exclude<Encoding, 'query'> = 'urlencoded',
    readonly host?: string, // Host header, to reach an organization by subdomain on loopback
  ) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    const h: Record<string, string> = { ...extra };
    if (this.auth) h.authorization = 'Basic ' + Buffer.from(`${this.auth.email}:${this.auth.apiKey}`).toString('base64');
    return h;
  }

  // `localAddress` picks the loopback source address (127.0.0.2, …), so that one test process can stand for
  // several clients of the per-IP limits.
  async request(method: string, path: string, params: Record<string, ParamValue> = {}, opts: RequestOptions = {}): Promise<Reply> {
    // Paths are relative to /api/v1 unless `root` (or they already start with /api/ or are /health).
    const url = new URL(opts.root || path.startsWith('/api/') || path.startsWith('/health') ? path : `/api/v1${path}`, this.baseUrl);
    const entries = Object.entries(params).filter(([, v]) => v !== undefined && v !== null) as [string, ParamValue][];
    const encoding = opts.encoding ?? (method === 'GET' ? 'query' : this.encoding);
    let body: Buffer | undefined;
    const headers = this.headers(opts.headers);
    if (this.host) headers.host = this.host;
    if (encoding === 'query') {
      for (const [k, v] of entries) url.searchParams.set(k, encodeValue(v));
    } else if (encoding === 'urlencoded') {
      body = Buffer.from(new URLSearchParams(entries.map(([k, v]) => [k, encodeValue(v)])).toString());
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, encodeValue(v));
      const encoded = new Request('http://x/', { method: 'POST', body: form });
      body = Buffer.from(await encoded.arrayBuffer());
      headers['content-type'] = encoded.headers.get('content-type')!;
    }
    return send(method, url, headers, body, opts.localAddress);
  }

  get(path: string, params?: Record<string, ParamValue>, opts?: RequestOptions) {
    return this.request('GET', path, params, opts);
  }
  post(path: string, params?: Record<string, ParamValue>, opts?: RequestOptions) {
    return this.request('POST', path, params, opts);
  }
  patch(path: string, params?: Record<string, ParamValue>, opts?: RequestOptions) {
    return this.request('PATCH', path, params, opts);
  }
  delete(path: string, params?: Record<string, ParamValue>, opts?: RequestOptions) {
    return this.request('DELETE', path, params, opts);
  }
}

export function send(method: string, url: URL, headers: Record<string, string>, body?: Buffer | string, localAddress?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const length = body !== undefined ? { 'content-length': String(Buffer.byteLength(body)) } : {};
    const req = http.request(url, { method, localAddress, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed, text, method, path: url.pathname });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
