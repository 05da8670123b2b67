// The one way the app talks to the server: the public API under /json/, with the session cookie (sent by the
// browser) and, on every request that may change something, the CSRF token from the `csrftoken` cookie.

export class ApiError extends Error {
  constructor(message: string, readonly code: string, readonly status: number, readonly body: Record<string, unknown> = {}) {
    super(message);
  }
}

import type { Endpoints } from './endpoints.gen';

// An endpoint as "METHOD /path/{param}" (endpoints.gen.ts, generated from the server's routes) and its parameters.
export type Endpoint = keyof Endpoints;
type PathParamsOf<S extends string> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | PathParamsOf<Rest> : never;
export type PathParams<E extends Endpoint> = [PathParamsOf<E>] extends [never] ? [] : [Record<PathParamsOf<E>, string | number>];

// A request that never reached the server, or whose answer never came (offline, server restarting).
export class NetworkError extends Error {}

export type Params = Record<string, unknown>;

function encode(params: Params): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    out.set(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return out;
}

export function csrfToken(): string {
  const m = /(?:^|;\s*)csrftoken=([^;]*)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : '';
}

export interface RequestOptions {
  signal?: AbortSignal;
  // A 401 that means "wrong password" (POST /fetch_api_key), not a session that ended.
  passwordCheck?: boolean;
}

export class Api {
  // Called when the session is gone (logged out elsewhere, expired): the app goes to the login page.
  onUnauthorized: () => void = () => {};

  constructor(readonly base = '/json') {}

  async request<T = Record<string, unknown>>(method: string, path: string, params: Params = {}, opts: RequestOptions = {}): Promise<T> {
    const body = encode(params);
    let url = `${this.base}${path}`;
    const init: RequestInit = { method, credentials: 'same-origin', signal: opts.signal, headers: {} };
    if (method === 'GET') {
      const qs = body.toString();
      if (qs) url += `?${qs}`;
    } else {
      init.body = body;
      (init.headers as Record<string, string>)['X-CSRFToken'] = csrfToken();
    }
    let res: Response;
    try {
      res = await fetch(url, init);
      // Over the rate limit: a read waits as long as the server says (up to 10 s) and tries once more.
      if (res.status === 429 && method === 'GET') {
        const wait = Math.min(10, Number(res.headers.get('Retry-After') ?? 1)) * 1000;
        await new Promise((r) => setTimeout(r, wait));
        res = await fetch(url, init);
      }
    } catch (err) {
      if ((err as Error).name === 'AbortError') throw err;
      throw new NetworkError((err as Error).message);
    }
    return this.answer<T>(res, opts);
  }

  private async answer<T>(res: Response, opts: RequestOptions = {}): Promise<T> {
    let json: Record<string, unknown>;
    try {
      json = await res.json();
    } catch {
      // A proxy's page, or a server going away mid-answer.
      if (res.status >= 500 || res.status === 0) throw new NetworkError(`HTTP ${res.status}`);
      throw new ApiError(`HTTP ${res.status}`, 'BAD_RESPONSE', res.status);
    }
    if (res.status >= 500) throw new NetworkError(String(json.msg ?? `HTTP ${res.status}`));
    if (json.result !== 'success') {
      const err = new ApiError(String(json.msg ?? 'Error'), String(json.code ?? 'BAD_REQUEST'), res.status, json);
      if (res.status === 401 && !opts.passwordCheck) this.onUnauthorized();
      throw err;
    }
    return json as T;
  }

  // A typed call: `endpoint` and `params` are checked against the server's declarations; `{name}`s in the path
  // are filled from `path` (percent-encoded).
  // Answers are not described by the declarations: callers say what they read from them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  call<E extends Endpoint>(endpoint: E, params: Endpoints[E], ...rest: [...PathParams<E>, RequestOptions?]): Promise<any> {
    const [method, template] = endpoint.split(' ') as [string, string];
    const pathParams = (template.includes('{') ? rest[0] : undefined) as Record<string, string | number> | undefined;
    const opts = (template.includes('{') ? rest[1] : rest[0]) as RequestOptions | undefined;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(pathParams![name])));
    return this.request(method, path, params as Params, opts);
  }

  get<T = Record<string, unknown>>(path: string, params?: Params, opts?: RequestOptions) {
    return this.request<T>('GET', path, params, opts);
  }
  post<T = Record<string, unknown>>(path: string, params?: Params, opts?: RequestOptions) {
    return this.request<T>('POST', path, params, opts);
  }
  patch<T = Record<string, unknown>>(path: string, params?: Params, opts?: RequestOptions) {
    return this.request<T>('PATCH', path, params, opts);
  }
  delete<T = Record<string, unknown>>(path: string, params?: Params, opts?: RequestOptions) {
    return this.request<T>('DELETE', path, params, opts);
  }

  // A file upload with progress (fetch reports none for request bodies).
  upload(file: File, onProgress: (fraction: number) => void): { done: Promise<{ url: string; filename: string }>; abort: () => void } {
    const xhr = new XMLHttpRequest();
    const done = new Promise<{ url: string; filename: string }>((resolve, reject) => {
      xhr.open('POST', `${this.base}/user_uploads`);
      xhr.setRequestHeader('X-CSRFToken', csrfToken());
      xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
      xhr.onload = () => {
        let json: Record<string, unknown> = {};
        try {
          json = JSON.parse(xhr.responseText);
        } catch {
          /* not JSON */
        }
        if (xhr.status === 200 && json.result === 'success') resolve({ url: String(json.url ?? json.uri), filename: String(json.filename ?? file.name) });
        else reject(new ApiError(String(json.msg ?? `Upload failed (HTTP ${xhr.status})`), String(json.code ?? 'BAD_REQUEST'), xhr.status, json));
      };
      xhr.onerror = () => reject(new NetworkError('Upload failed: no connection'));
      xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
      const form = new FormData();
      form.append('file', file, file.name);
      xhr.send(form);
    });
    return { done, abort: () => xhr.abort() };
  }
}

export const api = new Api();
