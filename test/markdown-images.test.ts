// Inline previews of uploaded images: the thumbnail is made at upload (at most 840×560 WebP, animated images
// kept animated), the message shows it as the reference does (div.message_inline_image, the thumbnail URL,
// original dimensions), only readers of the image get the thumbnail, and a decompression bomb gets no preview.
// Linked images on other sites go through /thumbnail, and only when the organization allows image previews.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import { uploaded } from './helpers/uploads.js';

function getBytes(server: TestServer, who: SeedName, url: string): Promise<{ status: number; type?: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(new URL(url, server.url), { headers: server.as(who).headers() }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

// A PNG that declares 20000×20000 pixels (400 megapixels) and holds none: only its header is ever read.
function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(20000, 0);
  ihdr.writeUInt32BE(20000, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.alloc(10))), chunk('IEND', Buffer.alloc(0))]);
}

describe('inline image previews', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
    await server.as('hamlet').post('/users/me/subscriptions', { subscriptions: [{ name: 'Pictures' }] });
  });
  after(() => server.close());

  const send = async (content: string) => {
    const sent = await server.as('hamlet').post('/messages', { type: 'stream', to: 'Pictures', topic: 'images', content });
    assert.equal(sent.status, 200, sent.text);
    return (await server.as('hamlet').get(`/messages/${sent.body.id}`)).body.message.content as string;
  };

  test('an uploaded image gets a thumbnail at upload, shown as the reference shows it, to readers of the image', async () => {
    const png = await sharp({ create: { width: 1000, height: 800, channels: 3, background: '#c33' } }).png().toBuffer();
    const url = await uploaded(server, 'hamlet', 'pic.png', png, 'image/png');
    const thumb = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    const html = await send(`Look: [pic.png](${url})`);
    assert.equal(
      html,
      `<p>Look: <a href="${url}">pic.png</a></p>\n<div class="message_inline_image"><a href="${url}" title="pic.png">`
        + `<img data-original-content-type="image/png" data-original-dimensions="1000x800" src="${thumb}"></a></div>`,
    );
    const got = await getBytes(server, 'hamlet', thumb);
    assert.deepEqual([got.status, got.type], [200, 'image/webp']);
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['webp', 700, 560]);
    // A subscriber reads the message, so the thumbnail too; the guest, who cannot, is told it does not exist.
    await server.as('cordelia').post('/users/me/subscriptions', { subscriptions: [{ name: 'Pictures' }] });
    assert.equal((await getBytes(server, 'cordelia', thumb)).status, 200);
    assert.equal((await getBytes(server, 'polonius', thumb)).status, 404);
    assert.equal((await getBytes(server, 'hamlet', thumb.replace('840x560.webp', '840x560-anim.webp'))).status, 404);
  });

  test('an animated image keeps its animation', async () => {
    const [w, h, pages] = [60, 40, 3];
    const raw = Buffer.alloc(w * h * pages * 3).map((_, i) => (i * 7) % 255);
    const gif = await sharp(raw, { raw: { width: w, height: h * pages, channels: 3, pageHeight: h } }).gif().toBuffer();
    const url = await uploaded(server, 'hamlet', 'spin.gif', gif, 'image/gif');
    const thumb = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560-anim.webp`;
    const html = await send(`[spin.gif](${url})`);
    assert.equal(
      html,
      `<p><a href="${url}">spin.gif</a></p>\n<div class="message_inline_image"><a href="${url}" title="spin.gif"><img data-animated="true" `
        + `data-original-content-type="image/gif" data-original-dimensions="60x40" src="${thumb}"></a></div>`,
    );
    const meta = await sharp((await getBytes(server, 'hamlet', thumb)).body, { animated: true }).metadata();
    assert.deepEqual([meta.format, meta.pages, meta.width], ['webp', 3, 60]);
  });

  test('an uploaded video plays in place, as the reference shows it', async () => {
    const url = await uploaded(server, 'hamlet', 'clip.mp4', Buffer.from('not really a video'), 'video/mp4');
    assert.equal(
      await send(`[clip.mp4](${url})`),
      `<p><a href="${url}">clip.mp4</a></p>\n<div class="message_inline_image message_inline_video"><a href="${url}" title="clip.mp4"><video preload="metadata" src="${url}"></video></a></div>`,
    );
  });

  test('a decompression bomb is stored but gets no preview', async () => {
    const url = await uploaded(server, 'hamlet', 'bomb.png', pngBomb(), 'image/png');
    assert.equal(await send(`[bomb.png](${url})`), `<p><a href="${url}">bomb.png</a></p>`);
    assert.equal((await getBytes(server, 'hamlet', `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`)).status, 404);
  });

  test('images on other sites are previewed through /thumbnail only when the organization allows image previews', async () => {
    const content = 'https://images.example/cat.png';
    const proxied = '/thumbnail?url=https%3A%2F%2Fimages.example%2Fcat.png';
    assert.equal(await send(content), `<div class="message_inline_image"><a href="${content}"><img data-src-fullsize="${proxied}&amp;size=full" src="${proxied}&amp;size=thumbnail"></a></div>`);
    assert.equal((await server.as('iago').patch('/realm', { inline_image_preview: false })).status, 200);
    assert.equal(await send(content), `<p><a href="${content}">${content}</a></p>`);
    assert.equal((await server.as('iago').patch('/realm', { inline_image_preview: true })).status, 200);
  });
});

describe('/thumbnail: images on other sites, fetched by the server through the guarded fetcher', () => {
  let site: http.Server;
  let siteUrl = '';
  let guarded: TestServer;
  let allowed: TestServer;
  before(async () => {
    const png = await sharp({ create: { width: 1200, height: 600, channels: 3, background: '#36c' } }).png().toBuffer();
    site = http.createServer((req, res) => {
      if (req.url === '/cat.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(png);
      }
      res.writeHead(302, { location: 'http://10.0.0.1/cat.png' }); // a private address, which must not be reached
      res.end();
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as import('node:net').AddressInfo).port}`;
    guarded = await startTestServer();
    allowed = await startTestServer({ env: { PARLANCE_FETCH_ALLOWED_HOSTS: '127.0.0.1' } });
  });
  after(async () => {
    site.close();
    await guarded.close();
    await allowed.close();
  });

  const thumbnail = (server: TestServer, url: string, size = 'thumbnail') => getBytes(server, 'hamlet', `/thumbnail?url=${encodeURIComponent(url)}&size=${size}`);

  test('a loopback address is not fetched unless listed; a listed one is, resized; redirects are checked too', async () => {
    assert.equal((await thumbnail(guarded, `${siteUrl}/cat.png`)).status, 404);
    const got = await thumbnail(allowed, `${siteUrl}/cat.png`);
    assert.deepEqual([got.status, got.type], [200, 'image/webp']);
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.width, meta.height], [840, 420]);
    const full = await thumbnail(allowed, `${siteUrl}/cat.png`, 'full');
    assert.deepEqual([full.status, full.type], [200, 'image/png']);
    assert.equal((await thumbnail(allowed, `${siteUrl}/elsewhere.png`)).status, 404);
    assert.equal((await thumbnail(allowed, 'file:///etc/passwd')).status, 404);
  });

  test('nothing is fetched when the organization does not allow image previews', async () => {
    assert.equal((await allowed.as('iago').patch('/realm', { inline_image_preview: false })).status, 200);
    assert.equal((await thumbnail(allowed, `${siteUrl}/cat.png`)).status, 404);
  });
});
