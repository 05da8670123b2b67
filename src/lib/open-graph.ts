// What a page says about itself for link previews: its Open Graph title, description and image (the title and
// description meta tags as fallbacks), read from the document's head, as the reference's link previews read
// them. The image address is made absolute against the page's final address; only http(s) images count.

export interface LinkEmbed {
  title: string | null;
  description: string | null;
  image: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decode = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1));
    return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
  });

function attributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
    attrs.set(m[1].toLowerCase(), decode(m[3] ?? m[4] ?? m[5] ?? ''));
  }
  return attrs;
}

const clean = (s: string | undefined) => {
  const t = s?.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, 500) : null;
};

export function parseOpenGraph(html: string, pageUrl: string): LinkEmbed | null {
  const body = html.search(/<body[\s>]/i);
  const head = body < 0 ? html.slice(0, 200_000) : html.slice(0, body);
  const meta = new Map<string, string>();
  for (const m of head.matchAll(/<meta\b[^>]*>/gi)) {
    const a = attributes(m[0]);
    const key = (a.get('property') ?? a.get('name'))?.toLowerCase();
    const content = a.get('content');
    if (key && content !== undefined && !meta.has(key)) meta.set(key, content);
  }
  const image = meta.get('og:image');
  if (!image) return null;
  let imageUrl: URL;
  try {
    imageUrl = new URL(image, pageUrl);
  } catch {
    return null;
  }
  if (imageUrl.protocol !== 'http:' && imageUrl.protocol !== 'https:') return null;
  const title = meta.get('og:title') ?? (/<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1] ? decode(/<title[^>]*>([^<]*)<\/title>/i.exec(head)![1]) : undefined);
  return { title: clean(title), description: clean(meta.get('og:description') ?? meta.get('description')), image: imageUrl.href };
}
