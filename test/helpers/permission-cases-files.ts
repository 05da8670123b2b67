// The permission matrix's cases for files: uploads and who may read them (the uploader and readers of a linking
// message), temporary URLs, resumable uploads (tus), attachments and avatars.
import sharp from 'sharp';
import { ADMIN, ADMINS, NO_FILE, own, PNG, SEED_OF, sendForm, unique, type Case, type Caller, type Fixtures, type Outcome } from './permission-fixtures.js';
import { avatarForm } from './permission-cases-mobile.js';

const INVALID_TOKEN: Outcome = [400, 'BAD_REQUEST', 'Invalid token'];
const NO_UPLOAD: Outcome = [404, 'BAD_REQUEST', '*'];
const TUS = '/api/v1/tus';

// A temporary URL of the Matrix file, made for the caller (for a foreign or anonymous caller, for hamlet).
async function temporaryUrl(f: Fixtures, who: Caller): Promise<string> {
  const client = who === 'other' || who === 'anon' ? f.server.as('hamlet') : own(f, who);
  return (await f.ok(client.get(`/api/v1${f.matrixFile}`, {}, { root: true }))).url;
}

// The thumbnail of cordelia's image, linked from a message in Matrix (made once).
let matrixThumbnail: Promise<string> | null = null;
function thumbnailInMatrix(f: Fixtures): Promise<string> {
  matrixThumbnail ??= (async () => {
    const form = new FormData();
    const png = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#fff' } }).png().toBuffer();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'pic.png');
    const url = (await f.ok(sendForm(f.server.as('cordelia'), 'POST', '/api/v1/user_uploads', form))).url as string;
    await f.ok(f.server.as('cordelia').post('/messages', { type: 'stream', to: f.matrix, topic: 'pictures', content: `[pic.png](${url})` }));
    return `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
  })();
  return matrixThumbnail;
}

// An image on another site is fetched by the server: here a private address, which it refuses without a
// connection, so every caller of the organization gets the same 404.
const NOT_FETCHED: Outcome = [404, 'BAD_REQUEST', 'This file does not exist or has been deleted.'];
const privateImage = { url: 'http://10.0.0.1/x.png', size: 'thumbnail' };

// Someone else's upload in progress: cordelia's.
const cordeliasUpload = (f: Fixtures) => f.tusUpload(f.server.as('cordelia'));

export const FILE_CASES: Case[] = [
  {
    key: 'POST /api/v1/user_uploads',
    request: () => {
      const form = new FormData();
      form.append('file', new Blob(['hello'], { type: 'text/plain' }), `${unique('f')}.txt`);
      return { path: '/api/v1/user_uploads', multipart: form };
    },
  },
  // Everyone of the organization is subscribed to Matrix, the guest and the bot too.
  { key: 'GET /user_uploads/{realm_id}/*', request: (f) => ({ path: f.matrixFile }), other: NO_FILE, anon: NO_FILE },
  {
    key: 'GET /user_uploads/{realm_id}/*', label: 'linked only from a private channel the caller is not in', request: (f) => ({ path: f.vaultFile }),
    ok: [], denied: NO_FILE, other: NO_FILE, anon: NO_FILE,
  },
  { key: 'GET /api/v1/user_uploads/{realm_id}/*', request: (f) => ({ path: `/api/v1${f.matrixFile}` }), other: NO_FILE },
  {
    key: 'GET /api/v1/user_uploads/{realm_id}/*', label: 'linked only from a private channel the caller is not in',
    request: (f) => ({ path: `/api/v1${f.vaultFile}` }), ok: [], denied: NO_FILE, other: NO_FILE,
  },
  // Thumbnails follow the image's own rule: readers of a linking message (everyone is in Matrix).
  { key: 'GET /user_uploads/thumbnail/*', request: async (f) => ({ path: await thumbnailInMatrix(f) }), other: NO_FILE, anon: NO_FILE },
  {
    key: 'GET /user_uploads/thumbnail/*', label: 'of a file that is not an image', request: (f) => ({ path: `/user_uploads/thumbnail/${f.matrixFile.slice('/user_uploads/'.length)}/840x560.webp` }),
    ok: [], denied: NO_FILE, other: NO_FILE, anon: NO_FILE,
  },
  // The root address is reached through /api/../ here, as the matrix prefixes other paths with /api/v1.
  { key: 'GET /thumbnail', request: () => ({ path: '/api/../thumbnail', params: privateImage }), ok: [], denied: NOT_FETCHED },
  { key: 'GET /api/v1/thumbnail', request: () => ({ path: '/thumbnail', params: privateImage }), ok: [], denied: NOT_FETCHED },
  // The token speaks for whoever it was made for; another organization does not know that user.
  { key: 'GET /user_uploads/temporary/{token}/*', request: async (f, who) => ({ path: await temporaryUrl(f, who) }), other: INVALID_TOKEN, anon: 200 },
  {
    key: 'GET /user_uploads/temporary/{token}/*', label: 'a forged token',
    request: async (f) => ({ path: (await temporaryUrl(f, 'member')).replace(/\.[\w-]{24}\//, `.${'A'.repeat(24)}/`) }),
    ok: [], denied: INVALID_TOKEN, other: INVALID_TOKEN, anon: INVALID_TOKEN,
  },
  { key: 'OPTIONS /api/v1/tus', request: () => ({ path: TUS, tus: { headers: {} } }), success: 204, anon: 204 },
  { key: 'OPTIONS /api/v1/tus/{upload_id}', request: () => ({ path: `${TUS}/1-x`, tus: { headers: {} } }), success: 204, anon: 204 },
  {
    key: 'POST /api/v1/tus',
    request: () => ({ path: TUS, tus: { headers: { 'upload-length': '5', 'upload-metadata': `filename ${Buffer.from('a.txt').toString('base64')}` } } }),
    success: 201,
  },
  { key: 'HEAD /api/v1/tus/{upload_id}', request: async (f, who) => ({ path: await f.tusUpload(own(f, who)), tus: { headers: {} } }) },
  { key: 'HEAD /api/v1/tus/{upload_id}', label: "someone else's", request: async (f) => ({ path: await cordeliasUpload(f), tus: { headers: {} } }), ok: [], denied: 404, other: 404 },
  {
    key: 'PATCH /api/v1/tus/{upload_id}',
    request: async (f, who) => ({
      path: await f.tusUpload(own(f, who)), tus: { headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'hello' },
    }),
    // The last part is answered with the file's URL.
    check: (reply) => {
      if (!String(reply.body?.url).startsWith('/user_uploads/')) throw new Error(`no URL: ${reply.text}`);
    },
  },
  {
    key: 'PATCH /api/v1/tus/{upload_id}', label: "someone else's",
    request: async (f) => ({ path: await cordeliasUpload(f), tus: { headers: { 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, body: 'hello' } }),
    ok: [], denied: NO_UPLOAD, other: NO_UPLOAD,
  },
  { key: 'DELETE /api/v1/tus/{upload_id}', request: async (f, who) => ({ path: await f.tusUpload(own(f, who)), tus: { headers: {} } }), success: 204 },
  {
    key: 'DELETE /api/v1/tus/{upload_id}', label: "someone else's", request: async (f) => ({ path: await cordeliasUpload(f), tus: { headers: {} } }),
    ok: [], denied: NO_UPLOAD, other: NO_UPLOAD,
  },
  { key: 'GET /api/v1/attachments', request: () => ({ path: '/attachments' }) },
  { key: 'DELETE /api/v1/attachments/{attachment_id}', request: async (f, who) => ({ path: `/attachments/${await f.attachment(own(f, who))}` }) },
  {
    key: 'DELETE /api/v1/attachments/{attachment_id}', label: "someone else's", request: async (f) => ({ path: `/attachments/${await f.attachment(f.server.as('cordelia'))}` }),
    ok: [], denied: [400, 'BAD_REQUEST', 'Invalid attachment'], other: [400, 'BAD_REQUEST', 'Invalid attachment'],
  },
  { key: 'POST /api/v1/users/me/avatar', request: () => ({ path: '/users/me/avatar', multipart: avatarForm() }) },
  { key: 'DELETE /api/v1/users/me/avatar', request: () => ({ path: '/users/me/avatar' }) },
  // The organization's icon: administrators (another organization's owner changes their own).
  { key: 'POST /api/v1/realm/icon', request: () => ({ path: '/realm/icon', multipart: avatarForm() }), ok: ADMINS, denied: ADMIN },
  { key: 'DELETE /api/v1/realm/icon', request: () => ({ path: '/realm/icon' }), ok: ADMINS, denied: ADMIN },
  // One's own API key, replaced: the fixtures' credentials follow, so the cases after it still act as the caller.
  {
    key: 'POST /api/v1/users/me/api_key/regenerate', request: () => ({ path: '/users/me/api_key/regenerate' }),
    check: (reply, who, f) => {
      const seed = who === 'other' ? 'lear' : SEED_OF[who === 'anon' ? 'member' : who];
      f.server.users[seed].apiKey = reply.body.api_key;
    },
  },
  // Redirects; spectators are not admitted by default. Another organization does not know the user: the
  // generated image of the text given.
  ...['/api/v1/avatar/{user_id_or_email}', '/api/v1/avatar/{user_id_or_email}/medium', '/avatar/{user_id_or_email}', '/avatar/{user_id_or_email}/medium'].map(
    (path): Case => ({
      key: `GET ${path}`,
      request: (f) => ({ path: path.replace('{user_id_or_email}', String(f.server.users.cordelia.id)) }),
      success: 302,
      anon: [401, 'UNAUTHORIZED', '*'],
    }),
  ),
  // Stored under random names, avatar images are served to anyone who has the address (here under the address of
  // avatars stored before the reference's shape).
  {
    key: 'GET /user_avatars/{realm_id}/avatars/{file_name}',
    request: async (f) => {
      const cordelia = f.server.as('cordelia');
      await f.ok(sendForm(cordelia, 'POST', '/api/v1/users/me/avatar', avatarForm()));
      const image = new URL((await cordelia.get(`/avatar/${f.server.users.cordelia.id}`, {}, { root: true })).headers.location!, f.server.url).pathname;
      return { path: image.replace(/^(\/user_avatars\/\d+)\//, '$1/avatars/') };
    },
    anon: 200,
  },
];
