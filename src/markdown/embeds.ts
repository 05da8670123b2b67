// A link's embed, fetched after the send (see actions/link-embeds.ts) and shaped as the reference's
// div.message_embed: the page's image (through the server's image proxy), its title and description.
import { El } from './tree.js';
import type { LinkEmbed } from '../lib/open-graph.js';

const quoteAll = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function embedEl(url: string, data: LinkEmbed): El {
  const container = new El('div', { class: 'message_embed' });
  const image = `/thumbnail?url=${quoteAll(data.image)}&size=thumbnail`;
  container.sub('a', {
    class: 'message_embed_image',
    href: url,
    style: `background-image: url("${image.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}")`,
  });
  const box = container.sub('div', { class: 'data-container' });
  if (data.title) box.sub('div', { class: 'message_embed_title' }).sub('a', { href: url, title: data.title }).setText(data.title, true);
  if (data.description) box.sub('div', { class: 'message_embed_description' }).setText(data.description, true);
  return container;
}
