// Slack-compatible incoming webhooks (`slack_incoming`): anything that can post to a Slack webhook can post here.
// `text`, Block Kit `blocks` and legacy `attachments` become Markdown; Slack's <url|label> links, *bold* and
// _italic_ are rewritten to ours. The topic is the URL's, else the payload's `channel`, else "(no topic)".
import { list, obj, optText, text, type Integration } from './types.js';

type P = Record<string, any>;

const textOf = (block: unknown) => text(obj(block).text, 'text block');
const joinPieces = (pieces: string[]) => pieces.map((p) => p.trim()).filter(Boolean).join('\n\n');

function element(e: P): string {
  return e.type === 'image' ? `[${text(e.alt_text)}](${text(e.image_url)})` : '';
}

function block(b: P): string {
  switch (b.type) {
    case 'context':
      return joinPieces(list(b.elements).map((e: P) => (e.type === 'image' ? element(e) : textOf(e))));
    case 'divider':
      return '----';
    case 'header':
      return `## ${textOf(b.text)}`;
    case 'image':
      return `[${b.title ? textOf(b.title) : text(b.alt_text)}](${text(b.image_url)})`;
    case 'section': {
      const pieces: string[] = [];
      if (b.text) pieces.push(textOf(b.text));
      if (b.accessory) pieces.push(element(obj(b.accessory)));
      const fields = list(b.fields).map(textOf);
      if (fields.length === 1) pieces.push(fields[0]);
      else if (fields.length > 1) {
        // Slack shows fields in two columns: a table without a header; cells cannot hold newlines or pipes.
        const cells = fields.map((f) => f.replace(/\n/g, ' ').replace(/\|/g, ' '));
        let table = '| | |\n|-|-|\n';
        for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
        pieces.push(table);
      }
      return joinPieces(pieces);
    }
  }
  return ''; // actions, input: interactive, nothing to show
}

function attachment(a: P): string {
  const pieces: string[] = [];
  if (a.title) pieces.push(a.title_link ? `## [${text(a.title)}](${text(a.title_link)})` : `## ${text(a.title)}`);
  if (a.pretext) pieces.push(text(a.pretext));
  if (a.text) pieces.push(text(a.text));
  if (Array.isArray(a.fields)) {
    pieces.push(a.fields.map((f: P) => (f.title && f.value ? `*${text(f.title)}*: ${text(f.value)}` : f.title ? `*${text(f.title)}*` : f.value ? text(f.value) : '')).filter(Boolean).join('\n'));
  }
  for (const b of list(a.blocks)) pieces.push(block(obj(b)));
  if (a.image_url) pieces.push(`[](${text(a.image_url)})`);
  if (a.footer) pieces.push(text(a.footer));
  if (a.ts) pieces.push(`<time:${text(a.ts)}>`);
  return joinPieces(pieces);
}

const links = (s: string) => s.replace(/<(\w+?:\/\/.*?)\|(.*?)>/g, '[$2]($1)');
// Slack's *bold* is our **bold**, its _italic_ our *italic*.
const formatting = (s: string) =>
  s.replace(/([^\w]|^)\*(?!\s)([^*\n]+)(?<!\s)\*(?=[^\w]|$)/g, '$1**$2**').replace(/([^\w]|^)_(?!\s)([^_\n]+)(?<!\s)_(?=[^\w]|$)/g, '$1*$2*');

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'Slack Incoming',
  events: ['text', 'blocks (section, header, context, divider, image)', 'attachments', 'JSON body or form-encoded payload='],
  handle({ payload }) {
    const p = obj(payload);
    const topic = p.channel ? text(p.channel).replace(/^[@#]/, '') : '(no topic)';
    let body = joinPieces([...list(p.blocks).map((b) => block(obj(b))), ...list(p.attachments).map((a) => attachment(obj(a)))]);
    if (!body && p.text) body = `${p.icon_emoji ? `${optText(p.icon_emoji)} ` : ''}${text(p.text)}`.trim();
    if (!body) return [];
    return [{ topic, content: formatting(links(body).trim()), event: 'message' }];
  },
};
