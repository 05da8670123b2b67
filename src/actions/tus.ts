// Resumable uploads (/api/v1/tus, the tus protocol) through @tus/server and its file store, staged in the
// uploads directory under tus/ (shared by every server process). The route layer has authenticated the caller;
// the protocol hooks find them through `callers`. An upload's id begins with its owner's user id, so nobody can
// resume, inspect or cancel another's. A finished upload becomes an attachment exactly as POST /user_uploads
// makes one, and the last request is answered as the reference server answers it: 200 with {"url", "filename"}.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ERRORS, Server, type CancellationContext, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import type { App } from '../app.js';
import { ApiError, UnauthorizedError } from '../http/errors.js';
import { uploadContentType } from '../lib/file-names.js';
import { randomToken } from '../lib/secrets.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { uploadsRoot } from '../storage/index.js';
import { checkUploadAllowed, doCreateAttachment, fileTooLarge, maxUploadBytes } from './uploads.js';

export const TUS_PATH = '/api/v1/tus';
const UPLOAD_ID = /^(\d+)-[A-Za-z0-9]{32}$/;

interface Caller { app: App; realm: Realm; user: User | null }
const callers = new WeakMap<IncomingMessage, Caller>();
const servers = new WeakMap<App, { server: Server; store: FileStore; directory: string }>();

const envelope = (msg: string, code = 'BAD_REQUEST') => JSON.stringify({ result: 'error', msg, code });
// How a hook refuses a request: tus sends this status and body.
const refusal = (err: ApiError, status = err.status) => ({ status_code: status, body: envelope(err.message, err.code) });
const notFound = () => ({ status_code: 404, body: envelope(ERRORS.FILE_NOT_FOUND.body.trim()) });

// tus writes its own plain-text error bodies; ours carry the JSON envelope like every other error.
class EnvelopeServer extends Server {
  override write(context: CancellationContext, req: IncomingMessage, res: ServerResponse, status: number, body = '', headers = {}) {
    if (status >= 400) {
      if (!body.startsWith('{')) body = envelope(body.trim() || STATUS_CODES[status] || 'Error');
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
    }
    return super.write(context, req, res, status, body, headers);
  }
}

function userOf(req: IncomingMessage): Caller & { user: User } {
  const caller = callers.get(req);
  if (!caller?.user) throw refusal(new UnauthorizedError());
  return caller as Caller & { user: User };
}

function tusServer(app: App) {
  let entry = servers.get(app);
  if (entry) return entry;
  const directory = path.join(uploadsRoot(app.config), 'tus');
  const store = new FileStore({ directory });
  const discard = async (id: string) => {
    await fs.rm(path.join(directory, id), { force: true });
    await store.configstore.delete(id);
  };
  const server = new EnvelopeServer({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    maxSize: () => maxUploadBytes(app.config),
    namingFunction: (req) => `${userOf(req).user.id}-${randomToken(32)}`,
    getFileIdFromRequest: (req) => new URL(req.url ?? '/', 'http://x').pathname.slice(TUS_PATH.length + 1).replace(/\/$/, '') || undefined,
    async onIncomingRequest(req, _res, id) {
      if (UPLOAD_ID.exec(id)?.[1] !== String(userOf(req).user.id)) throw notFound();
    },
    async onUploadCreate(req, res, upload) {
      const { realm } = userOf(req);
      if (upload.size === undefined) throw { status_code: 411, body: envelope('SizeIsDeferred is not supported') };
      try {
        await checkUploadAllowed(app, realm, upload.size);
      } catch (err) {
        throw err instanceof ApiError ? refusal(err, 413) : err;
      }
      return res;
    },
    async onUploadFinish(req, res, upload: Upload) {
      const { realm, user } = userOf(req);
      const file = path.join(directory, upload.id);
      const name = upload.metadata?.filename ?? '';
      const declaredType = upload.metadata?.filetype ?? undefined;
      try {
        const data = uploadContentType(name, declaredType) === 'text/plain' ? await fs.readFile(file) : undefined;
        const created = await doCreateAttachment(app, realm, user, {
          name, declaredType, size: upload.offset, data, store: (key) => app.storage.adopt(key, file),
        });
        await store.configstore.delete(upload.id);
        return { res, status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(created) };
      } catch (err) {
        // A retry would find the upload complete and never learn its URL: start over instead.
        await discard(upload.id);
        throw err instanceof ApiError ? refusal(err, 413) : err;
      }
    },
    onResponseError(_req, _res, err) {
      if (err === ERRORS.ERR_MAX_SIZE_EXCEEDED) return refusal(fileTooLarge(app.config), 413);
      if (!('status_code' in err)) app.log.error({ err }, 'resumable upload failed');
      return undefined;
    },
  });
  entry = { server, store, directory };
  servers.set(app, entry);
  return entry;
}

export async function handleTus(app: App, realm: Realm, user: User | null, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The route decided the method; tus would otherwise let a header change it after authentication.
  delete req.headers['x-http-method-override'];
  callers.set(req, { app, realm, user });
  await tusServer(app).server.handle(req, res);
}
