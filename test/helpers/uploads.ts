// Uploading files the way the client libraries do, and fetching them back.
import assert from 'node:assert/strict';
import { send, type Reply } from './client.js';
import type { SeedName, TestServer } from './server.js';

export interface FilePart {
  name: string;
  data: Buffer | string;
  type?: string;
  field?: string; // the part's name: the Python library uses the file name, the JavaScript one anything
}

export async function multipart(files: FilePart[], fields: Record<string, string> = {}): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files) {
    const bytes = typeof f.data === 'string' ? Buffer.from(f.data) : f.data;
    form.append(f.field ?? f.name, new Blob([new Uint8Array(bytes)], f.type ? { type: f.type } : {}), f.name);
  }
  const request = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

// A multipart body written by hand, for file names FormData would escape.
export function rawMultipart(fileNameParam: string, data: string): { body: Buffer; contentType: string } {
  const boundary = 'XparlanceBoundary42';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${fileNameParam}\r\nContent-Type: text/plain\r\n\r\n`, 'latin1'),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

export async function postMultipart(server: TestServer, who: SeedName | null, path: string, encoded: { body: Buffer; contentType: string }): Promise<Reply> {
  const client = who ? server.as(who) : server.anon();
  const headers = client.headers({ 'content-type': encoded.contentType });
  if (client.host) headers.host = client.host;
  return send('POST', new URL(path, server.url), headers, encoded.body);
}

export async function upload(server: TestServer, who: SeedName, files: FilePart[], fields: Record<string, string> = {}): Promise<Reply> {
  return postMultipart(server, who, '/api/v1/user_uploads', await multipart(files, fields));
}

// Uploads one file and returns its URL (relative, as in messages).
export async function uploaded(server: TestServer, who: SeedName, name: string, data: string | Buffer, type?: string): Promise<string> {
  const res = await upload(server, who, [{ name, data, type }]);
  assert.equal(res.status, 200, res.text);
  return res.body.url;
}

// Fetches a file at its message-link URL, as `who` (with credentials) or anonymously.
export function fetchFile(server: TestServer, who: SeedName | null, url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  const client = who ? server.as(who) : server.anon();
  const h = client.headers(headers);
  if (client.host) h.host = client.host;
  return send(method, new URL(url, server.url), h);
}

export const readable = async (server: TestServer, who: SeedName | null, url: string) => (await fetchFile(server, who, url)).status === 200;
