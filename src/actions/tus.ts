// Resumable uploads (/api/v1/tus, the tus protocol) through @tus/server and its file store, staged in the
// uploads directory under tus/ (shared by every server process). The route layer has authenticated the caller;
// the protocol hooks find them through `callers`. An upload's id begins with its owner's user id, so nobody can
// resume, inspect or cancel another's. A finished upload becomes an attachment exactly as POST /user_uploads
// makes one, and the last request is answered as the reference server answers it: 200 with {"url", "filename"}.
// From its start an upload counts against the organization's quota at its declared length (staged-uploads.ts);
// it expires `resumableUploadExpirySeconds` after it started (Upload-Expires says when). Its row decides whether
// it may go on: tus's own expiry is not used, as it looks the upload up again after finishing it in the
// request that created it, when the files have already become an attachment.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ERRORS, Server, type CancellationContext, type Upload } from '@tus/server';
import { FileStore } from '@tus/file-store';
import type { App } from '../app.js';
import { ApiError, UnauthorizedError } from '../lib/errors.js';
import { uploadContentType } from '../lib/file-names.js';
import { randomToken } from '../lib/secrets.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { findStagedUpload } from '../store/staged-uploads.js';
import { discardStagedFiles, doStageUpload, releaseStagedUpload, stagedUploadExpiry, stagedUploadsDir } from './staged-uploads.js';
import { doCreateAttachment, fileTooLarge, maxUploadBytes } from './uploads.js';
import { TUS_PATH } from './tus-path.js';

const UPLOAD_ID = /^(\d+)-[A-Za-z0-9]{32}$/;

interface Caller { app: App; realm: Realm; user: User | null }
const callers = new WeakMap<IncomingMessage, Caller>();
const servers = new WeakMap<App, { server: Server; store: FileStore; directory: string }>();

const envelope = (msg: string, code = 'BAD_REQUEST', extra = {}) => JSON.stringify({ result: 'error', msg, code, ...extra });
// How a hook refuses a request: tus sends this status and body (headers it cannot take, so they go on `res`
// first). A quota refusal is a 413, as the reference server's tusd hook answers it.
function refusal(err: ApiError, res?: ServerResponse) {
  for (const [name, value] of Object.entries(err.headers)) res?.setHeader(name, value);
  const status = err.code === 'REALM_UPLOAD_QUOTA' ? 413 : err.status;
  return { status_code: status, body: envelope(err.message, err.code, err.extra) };
}
const notFound = () => ({ status_code: 404, body: envelope(ERRORS.FILE_NOT_FOUND.body.trim()) });
const gone = () => new ApiError(ERRORS.FILE_NOT_FOUND.body.trim(), 'BAD_REQUEST', 404);

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
  const directory = stagedUploadsDir(app.config);
  const store = new FileStore({ directory });
  const server = new EnvelopeServer({
    path: TUS_PATH,
    datastore: store,
    relativeLocation: true,
    maxSize: () => maxUploadBytes(app.config),
    namingFunction: (req) => `${userOf(req).user.id}-${randomToken(32)}`,
    getFileIdFromRequest: (req) => new URL(req.url ?? '/', 'http://x').pathname.slice(TUS_PATH.length + 1).replace(/\/$/, '') || undefined,
    async onIncomingRequest(req, res, id) {
      if (UPLOAD_ID.exec(id)?.[1] !== String(userOf(req).user.id)) throw notFound();
      // A cancelled upload stops counting at once; should removing its files fail, the sweep finds them.
      if (req.method === 'DELETE') await releaseStagedUpload(app.db, id);
      if (req.method === 'PATCH' || req.method === 'HEAD') {
        const staged = await findStagedUpload(app.db, id);
        if (!staged) throw notFound();
        const expires = stagedUploadExpiry(app.config, staged);
        if (expires !== null && expires <= Date.now()) throw { status_code: 410, body: envelope(ERRORS.FILE_NO_LONGER_EXISTS.body.trim()) };
        if (expires !== null) res.setHeader('Upload-Expires', new Date(expires).toUTCString());
      }
    },
    async onUploadCreate(req, res, upload) {
      const { realm, user } = userOf(req);
      if (upload.size === undefined) throw { status_code: 411, body: envelope('SizeIsDeferred is not supported') };
      try {
        // (tus has refused a length over maxSize already.)
        const staged = await doStageUpload(app, realm, user, upload.id, upload.size);
        const expires = stagedUploadExpiry(app.config, staged);
        if (expires !== null) res.setHeader('Upload-Expires', new Date(expires).toUTCString());
      } catch (err) {
        throw err instanceof ApiError ? refusal(err, res) : err;
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
          staged: async (tx) => {
            if (!(await releaseStagedUpload(tx, upload.id))) throw gone();
          },
        });
        await store.configstore.delete(upload.id);
        return { res, status_code: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(created) };
      } catch (err) {
        // A retry would find the upload complete and never learn its URL: start over instead.
        await releaseStagedUpload(app.db, upload.id);
        await discardStagedFiles(app.config, [upload.id]);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(); // removed under us (expiry, deactivation)
        throw err instanceof ApiError ? refusal(err, res) : err;
      }
    },
    onResponseError(_req, _res, err) {
      if (err === ERRORS.ERR_MAX_SIZE_EXCEEDED) return { ...refusal(fileTooLarge(app.config)), status_code: 413 };
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
