// Markdown to safe HTML. Raw HTML in the input is always escaped; links open safely.
import MarkdownIt from 'markdown-it';

// Links and images may point at web or e-mail addresses, or at this server (relative): never javascript:,
// vbscript:, file: or data: (markdown-it lets data: images through). It sees the address after entities were
// decoded and unsafe characters percent-encoded, so a scheme is read here as a browser would read it.
export function validateLink(url: string): boolean {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url)?.[1].toLowerCase();
  return scheme === undefined || scheme === 'http' || scheme === 'https' || scheme === 'mailto';
}

const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
md.validateLink = validateLink;
const defaultLink = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx].attrSet('target', '_blank');
  tokens[idx].attrSet('rel', 'noopener noreferrer');
  return defaultLink(tokens, idx, options, env, self);
};

export function renderMarkdown(source: string): string {
  return source ? md.render(source).trim() : '';
}
