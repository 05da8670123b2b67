// Link embeds (inline_url_embed_preview, off by default): after a message is sent, the pages it links on other
// sites are fetched — by the guarded fetcher only, 1 MiB and 5 s each, at most 4 fetches at once in a process
// — and their Open Graph title, description and image become div.message_embed. The message is then
// re-rendered and clients get an update_message event with `rendering_only`, as the reference sends it.
import type { App } from '../app.js';
import { guardedFetch } from '../lib/guarded-fetch.js';
import { parseOpenGraph, type LinkEmbed } from '../lib/open-graph.js';
import { renderMessage, type RenderContext } from '../markdown/message.js';
import { lockMessage } from '../store/message-edits.js';
import { setRenderedContent } from '../store/message-rendering.js';
import { findMessages } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import type { Tx } from '../store/db.js';
import { fetchAllowList } from './external-images.js';
import { byFlags, messageAudience } from './message-audience.js';
import { inTransaction } from './transaction.js';

const MAX_PAGE_BYTES = 1024 * 1024;
const FETCH_MS = 5000;
const MAX_LINKS = 24;
const CONCURRENT = 4;

let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export async function fetchLinkEmbed(app: App, url: string): Promise<LinkEmbed | null> {
  try {
    const res = await limited(() => guardedFetch(url, { allow: fetchAllowList(app), maxBytes: MAX_PAGE_BYTES, timeoutMs: FETCH_MS, headers: { accept: 'text/html,application/xhtml+xml' } }));
    const type = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
    if (res.status !== 200 || (type !== 'text/html' && type !== 'application/xhtml+xml')) return null;
    return parseOpenGraph(res.body.toString('utf8'), res.url);
  } catch {
    return null;
  }
}

// Runs after the send has committed; failures only lose the embeds. `contextFor` is the sender's rendering
// context (renderContext), for the content as it is then.
export async function doEmbedLinks(
  app: App, realm: Realm, messageId: number, links: string[], contextFor: (tx: Tx, content: string) => Promise<RenderContext>,
): Promise<void> {
  const embeds = new Map<string, LinkEmbed | null>();
  for (const url of links.slice(0, MAX_LINKS)) embeds.set(url, await fetchLinkEmbed(app, url));
  if (![...embeds.values()].some(Boolean)) return;
  await inTransaction(app, async (tx, emit) => {
    await lockMessage(tx, messageId);
    const [message] = await findMessages(tx, realm.id, [messageId]);
    if (!message) return;
    // The content may have been edited meanwhile: the current content is rendered, with the embeds known.
    const ctx = await contextFor(tx, message.content);
    const rendered = renderMessage(message.content, { ...ctx, linkEmbeds: embeds });
    if (rendered.html === message.renderedContent) return;
    await setRenderedContent(tx, messageId, rendered.html, rendered.hasImage);
    const stream = message.streamId === null ? null : ((await findStream(tx, realm.id, message.streamId)) ?? null);
    const event = {
      type: 'update_message', user_id: null, edit_timestamp: Math.floor(Date.now() / 1000), message_id: messageId, message_ids: [messageId],
      content: message.content, rendered_content: rendered.html, rendering_only: true,
    };
    for (const g of byFlags(await messageAudience(tx, realm.id, stream, [messageId], messageId))) emit(realm.id, { ...event, flags: g.flags }, g.userIds);
  });
}
