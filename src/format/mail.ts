// One template per mail, rendered twice: as plain text and as HTML (every value escaped). A template is a list of
// blocks; links are paths of the organization, joined to its configured URL (organizationUrl: never a request's
// Host), so that no mail can point elsewhere because of who sent the request that caused it.
import { escapeHtml } from '../lib/text.js';

export type Inline = string | { strong: string } | { link: string; label?: string };
export type Block = Inline[] | { quote: string } | { heading: string };

export interface MailTemplate {
  subject: string;
  blocks: Block[];
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

// `realmUrl`: the organization's configured URL; `realmName` signs the footer.
export function renderMail(t: MailTemplate, realmUrl: string, realmName: string): RenderedMail {
  const href = (path: string) => {
    if (!path.startsWith('/') || path.startsWith('//')) throw new Error(`mail link is not a path of the organization: ${path}`);
    return realmUrl + path;
  };
  const textOf = (parts: Inline[]) =>
    parts.map((p) => (typeof p === 'string' ? p : 'strong' in p ? p.strong : p.label ? `${p.label}: ${href(p.link)}` : href(p.link))).join('');
  const htmlOf = (parts: Inline[]) =>
    parts
      .map((p) =>
        typeof p === 'string' ? escapeHtml(p)
        : 'strong' in p ? `<b>${escapeHtml(p.strong)}</b>`
        : `<a href="${escapeHtml(href(p.link))}">${escapeHtml(p.label ?? href(p.link))}</a>`,
      )
      .join('');
  const footer: Block = [`${realmName} — `, { link: '/' }];
  const blocks = [...t.blocks, footer];
  const text = blocks
    .map((b) => (Array.isArray(b) ? textOf(b) : 'quote' in b ? b.quote.split('\n').map((l) => `> ${l}`).join('\n') : `${b.heading}\n${'-'.repeat([...b.heading].length)}`))
    .join('\n\n');
  const body = blocks
    .map((b) =>
      Array.isArray(b) ? `<p>${htmlOf(b)}</p>`
      : 'quote' in b ? `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc;white-space:pre-wrap">${escapeHtml(b.quote)}</blockquote>`
      : `<h3 style="margin:1.2em 0 .4em">${escapeHtml(b.heading)}</h3>`,
    )
    .join('\n');
  const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(t.subject)}</title></head>\n<body style="font-family:sans-serif">\n${body}\n</body></html>\n`;
  return { subject: t.subject, text: `${text}\n`, html };
}
