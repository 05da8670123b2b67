// Gathers a request's raw parameter values from the query string and the body (urlencoded, multipart or a
// JSON object), whatever the method. Duplicate names keep the last value, as the reference server does.
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors.js';
import type { UploadedFile } from '../lib/uploaded-file.js';

export type { UploadedFile };

export interface RawValues {
  values: Map<string, string>;
  files: UploadedFile[];
}

// The query parser gives an array for a repeated name.
function putLast(values: Map<string, string>, key: string, value: unknown): void {
  if (Array.isArray(value)) {
    if (value.length) values.set(key, String(value[value.length - 1]));
  } else if (value !== undefined) values.set(key, String(value));
}

export async function collectValues(req: FastifyRequest): Promise<RawValues> {
  const values = new Map<string, string>();
  const files: UploadedFile[] = [];
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) putLast(values, k, v);

  if (req.isMultipart()) {
    // The multipart parser streams parts instead of reading the body, so Fastify's body limit does not apply:
    // enforce it here (declared length, any field value cut short at the limit, and the parts read so far, for
    // a body of undeclared length).
    const tooLarge = () => new ApiError('Request body is too large', 'BAD_REQUEST', 413);
    const limit = req.routeOptions.bodyLimit;
    if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge();
    let total = 0;
    try {
      for await (const part of req.parts()) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          total += data.length;
          files.push({ fieldname: part.fieldname, filename: part.filename, mimetype: part.mimetype, data });
        } else if (part.valueTruncated) throw tooLarge();
        else {
          total += String(part.value).length;
          values.set(part.fieldname, String(part.value));
        }
        if (total > limit) throw tooLarge();
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const status = (err as { statusCode?: number }).statusCode;
      if (status === 413) throw tooLarge();
      throw new ApiError('Malformed multipart body', 'BAD_REQUEST', 400);
    }
  } else if (req.body instanceof URLSearchParams) {
    for (const [k, v] of req.body) values.set(k, v);
  } else if (req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
    // A JSON body carries the same names; its structured values are handed on as JSON text.
    for (const [k, v] of Object.entries(req.body as Record<string, unknown>)) {
      if (v === undefined) continue;
      try {
        values.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      } catch {
        throw new ApiError(`${k} is nested too deeply`, 'BAD_REQUEST', 400, { var_name: k });
      }
    }
  }
  return { values, files };
}

// A webhook's parameters: the query string and a form's fields; a JSON body is the tool's payload.
export function webhookValues(req: FastifyRequest): RawValues {
  const values = new Map<string, string>();
  for (const [k, v] of Object.entries((req.query ?? {}) as Record<string, unknown>)) putLast(values, k, v);
  if (req.body instanceof URLSearchParams) for (const [k, v] of req.body) if (k !== 'payload') values.set(k, v);
  return { values, files: [] };
}

// The body as it arrived, for webhooks whose tool signs it (GitHub's X-Hub-Signature-256).
export const rawBodies = new WeakMap<FastifyRequest, string>();
export const keepsRawBody = (url: string) => url.startsWith('/api/v1/external/');
