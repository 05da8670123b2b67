// Runs in its own process (the load generator): keep-alive HTTP requests against the server under test.
import http from 'node:http';

export const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

export function request(base: string, auth: string, method: string, path: string, params: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const url = new URL(`/api/v1${path}`, base);
  let body: string | undefined;
  const headers: Record<string, string> = { authorization: auth };
  if (method === 'GET' || method === 'DELETE') for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  else {
    body = new URLSearchParams(params).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function basic(email: string, key: string): string {
  return 'Basic ' + Buffer.from(`${email}:${key}`).toString('base64');
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
