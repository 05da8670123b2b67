// Links: which addresses may be linked (the reference's scheme list, bar `file:`), how a bare address is read
// (schemeless ones as http), links into the organization made relative, and the autolink pattern for web
// addresses written in text (a known top-level domain, or a scheme; parentheses balanced up to six deep).
import { createRequire } from 'node:module';
import { El } from './tree.js';

// The schemes the reference links (http, https, ftp and the HTML standard's safelisted schemes); `file:` links,
// which it also allows, are left as text here.
const ALLOWED_SCHEMES = new Set([
  'http', 'https', 'ftp', 'bitcoin', 'geo', 'im', 'irc', 'ircs', 'magnet', 'mailto', 'matrix', 'mms', 'news', 'nntp',
  'openpgp4fpr', 'sip', 'sms', 'smsto', 'ssh', 'tel', 'urn', 'webcal', 'wtai', 'xmpp',
]);
export const isAllowedScheme = (scheme: string) => ALLOWED_SCHEMES.has(scheme.toLowerCase());

// Schemes whose addresses carry a host (`//host`), as Python's urllib knows them.
const USES_NETLOC = new Set(['', 'ftp', 'http', 'gopher', 'nntp', 'telnet', 'imap', 'wais', 'file', 'mms', 'https', 'shttp', 'snews',
  'prospero', 'rtsp', 'rtsps', 'rtspu', 'rsync', 'svn', 'svn+ssh', 'sftp', 'nfs', 'git', 'git+ssh', 'ws', 'wss', 'itms-services']);

interface Parts { scheme: string; netloc: string; path: string; query: string; fragment: string }

// urllib.parse.urlsplit, as far as links need it; null where it raises (a bracket out of place in the host).
export function urlSplit(url: string): Parts | null {
  url = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\r\n]/g, '');
  let scheme = '';
  const sm = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (sm) {
    scheme = sm[1].toLowerCase();
    url = url.slice(sm[0].length);
  }
  let netloc = '';
  if (url.startsWith('//')) {
    const end = url.slice(2).search(/[/?#]/);
    netloc = end < 0 ? url.slice(2) : url.slice(2, end + 2);
    url = end < 0 ? '' : url.slice(end + 2);
    if (netloc.includes('[') !== netloc.includes(']')) return null;
  }
  let fragment = '';
  let query = '';
  const hash = url.indexOf('#');
  if (hash >= 0) [url, fragment] = [url.slice(0, hash), url.slice(hash + 1)];
  const q = url.indexOf('?');
  if (q >= 0) [url, query] = [url.slice(0, q), url.slice(q + 1)];
  return { scheme, netloc, path: url, query, fragment };
}

export function urlUnsplit({ scheme, netloc, path, query, fragment }: Parts): string {
  let url = path;
  if (netloc || (scheme && USES_NETLOC.has(scheme) && !url.startsWith('//'))) {
    if (url && !url.startsWith('/')) url = `/${url}`;
    url = `//${netloc}${url}`;
  }
  if (scheme) url = `${scheme}:${url}`;
  if (query) url += `?${query}`;
  if (fragment) url += `#${fragment}`;
  return url;
}

// The address to link, '' for one too malformed to read, or null when it must stay text.
export function sanitizeUrl(url: string, depth = 0): string | null {
  const parts = urlSplit(url.replace(/ /g, '%20'));
  if (!parts) return '';
  const { netloc, path, query, fragment } = parts;
  let { scheme } = parts;
  if (!scheme && !netloc && path.includes('@')) scheme = 'mailto';
  else if (!scheme && !netloc && path.startsWith('/')) return urlUnsplit({ scheme: '', netloc: '', path, query, fragment });
  else if (!scheme && !netloc && !path && !query && fragment) return urlUnsplit({ scheme: '', netloc: '', path: '', query: '', fragment });
  if (!scheme) return depth ? null : sanitizeUrl(`http://${url}`, depth + 1);
  if (!ALLOWED_SCHEMES.has(scheme)) return null;
  return urlUnsplit({ scheme, netloc, path, query, fragment });
}

export function rewriteLocalLink(realmUrl: string | undefined, link: string): string {
  if (realmUrl) {
    const prefix = `${realmUrl}/`;
    if (link.startsWith(`${prefix}#`) || link.startsWith(`${prefix}user_uploads/`)) return link.slice(prefix.length);
  }
  return link;
}

// An `<a>` for an address, or the address itself when it may not be linked.
export function urlToA(realmUrl: string | undefined, url: string, text?: string): El | string {
  const href = sanitizeUrl(url);
  if (href === null) return url;
  const a = new El('a', { href: rewriteLocalLink(realmUrl, href) });
  a.setText(text ?? url, true);
  return a;
}

// File extensions that are also top-level domains, not linked without a scheme.
const FALSE_POSITIVES = new Set(['java', 'md', 'mov', 'py', 'zip']);

const W = '[\\p{L}\\p{N}_]';

function webLinkSource(): string {
  const tlds = (createRequire(import.meta.url)('tlds') as string[]).filter((t) => !FALSE_POSITIVES.has(t)).sort((a, b) => b.length - a.length);
  const inner = '[^\\s()"]*';
  const group = '[^\\s()"]*?(?:\\(%s\\)[^\\s()"]*?)*';
  let nested = group;
  for (let i = 0; i < 6; i++) nested = nested.replace('%s', group);
  nested = nested.replace('%s', inner);
  return (
    `(?<![^\\s'"(,:<])(?<url>(?:(?:https?://[${W.slice(1, -1)}.:@-]+?|(?:(?:[${W.slice(1, -1)}-]+\\.)+(?:${tlds.join('|')})))` +
    `(?:/${nested})?)|(?:[${W.slice(1, -1)}.-]+@[${W.slice(1, -1)}.-]+\\.${W}+)|(?:bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}))` +
    `(?=[!:;?),.'">]*(?:$|\\s))`
  );
}

let webLink: RegExp | null = null;
// Built on first use: the alternation of every top-level domain is large.
export function webLinkRegex(): RegExp {
  return (webLink ??= new RegExp(webLinkSource(), 'u'));
}
