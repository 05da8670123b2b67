import { fileKey } from '../actions/attachments.js';
import { TUS_PATH } from '../actions/tus-path.js';
import { accessFileByToken, accessThumbnail, accessUploadedFile, doUploadFile, temporaryFileUrl } from '../actions/uploads.js';
import { oneOf, str } from '../http/params.js';
import { accessExternalImage } from '../actions/external-images.js';
import { type Ctx, route } from '../http/route.js';
import { sendUploadedFile } from '../http/send-file.js';

// The rest of the path (the route's `*`): a long file name would not fit a path parameter.
const uploadPath = (ctx: { req: { params: unknown } }) => (ctx.req.params as Record<string, string>)['*'] ?? '';

// The tus protocol writes its own responses.
async function tus({ app, realm, user, req, reply }: Pick<Ctx<unknown, 'optional'>, 'app' | 'realm' | 'user' | 'req' | 'reply'>) {
  reply.hijack();
  const { handleTus } = await import('../actions/tus.js');
  await handleTus(app, realm, user, req.raw, reply.raw);
}

const tusPath = TUS_PATH.replace('/api/v1', '');
const uploadId = { upload_id: str() };

export const uploadRoutes = [
  route({
    method: 'POST',
    path: '/user_uploads',
    auth: 'user',
    summary: 'Upload a file (one file part, multipart); only the uploader may read it until a message links to it',
    params: {},
    handler: async ({ app, realm, user, files }) => {
      const { url, filename } = await doUploadFile(app, realm, user, files);
      return { uri: url, url, filename };
    },
  }),
  // Message links lead here. API clients send their credentials; without them, only files of web-public
  // channels are served, when the organization admits spectators.
  route({
    method: 'GET',
    path: '/user_uploads/{realm_id}/*',
    root: true,
    auth: 'optional',
    summary: 'An uploaded file, to its uploader and the readers of messages linking to it',
    params: { realm_id: str() },
    handler: async (ctx) => {
      const { app, realm, user, params, req, reply } = ctx;
      const attachment = await accessUploadedFile(app, realm, user, params.realm_id, uploadPath(ctx));
      await sendUploadedFile(req, reply, app.storage, fileKey(attachment.pathId), attachment);
    },
  }),
  route({
    method: 'GET',
    path: '/user_uploads/{realm_id}/*',
    auth: 'user',
    summary: 'A temporary URL for an uploaded file that works without credentials for a minute',
    params: { realm_id: str() },
    handler: async (ctx) => {
      const { app, realm, user, params } = ctx;
      return { url: temporaryFileUrl(user, await accessUploadedFile(app, realm, user, params.realm_id, uploadPath(ctx))) };
    },
  }),
  // Images on other sites, as messages show them (fetched by the server, guarded); also under /api/v1.
  ...[true, false].map((root) =>
    route({
      method: 'GET',
      path: '/thumbnail',
      root,
      auth: 'user',
      summary: 'An image on another site that a message shows, fetched by the server (when image previews are allowed)',
      params: { url: str(), size: oneOf(['thumbnail', 'full'] as const).default('full') },
      handler: async ({ app, realm, params, reply }) => {
        const { data, contentType } = await accessExternalImage(app, realm, params.url, params.size);
        reply.headers({ 'Content-Type': contentType, 'Cache-Control': 'private, max-age=86400', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'" });
        reply.send(data);
      },
    }),
  ),
  // Thumbnails made at upload (message_inline_image previews), to whoever may read the image.
  route({
    method: 'GET',
    path: '/user_uploads/thumbnail/*',
    root: true,
    auth: 'optional',
    summary: 'The thumbnail of an uploaded image, to those who may read the image',
    params: {},
    handler: async (ctx) => {
      const { app, realm, user, req, reply } = ctx;
      const { key, name } = await accessThumbnail(app, realm, user, uploadPath(ctx));
      await sendUploadedFile(req, reply, app.storage, key, { fileName: name, contentType: 'image/webp' });
    },
  }),
  route({
    method: 'GET',
    path: '/user_uploads/temporary/{token}/*',
    root: true,
    auth: 'none',
    summary: 'An uploaded file through a temporary URL',
    params: { token: str() },
    handler: async (ctx) => {
      const { app, realm, params, req, reply } = ctx;
      const attachment = await accessFileByToken(app, realm, params.token, uploadPath(ctx));
      await sendUploadedFile(req, reply, app.storage, fileKey(attachment.pathId), attachment);
    },
  }),
  route({ method: 'OPTIONS', path: tusPath, auth: 'none', summary: 'Resumable uploads (tus): the server\'s capabilities', params: {}, handler: tus }),
  route({ method: 'POST', path: tusPath, auth: 'user', summary: 'Start a resumable upload (tus; Upload-Length, Upload-Metadata filename and filetype)', params: {}, handler: tus }),
  route({ method: 'HEAD', path: `${tusPath}/{upload_id}`, auth: 'user', summary: 'A resumable upload\'s offset (tus)', params: uploadId, handler: tus }),
  route({ method: 'PATCH', path: `${tusPath}/{upload_id}`, auth: 'user', summary: 'Continue a resumable upload at Upload-Offset (tus); the last part answers {url, filename}', params: uploadId, handler: tus }),
  route({ method: 'DELETE', path: `${tusPath}/{upload_id}`, auth: 'user', summary: 'Cancel a resumable upload (tus)', params: uploadId, handler: tus }),
  route({ method: 'OPTIONS', path: `${tusPath}/{upload_id}`, auth: 'none', summary: 'Resumable uploads (tus): the server\'s capabilities', params: uploadId, handler: tus }),
];
