// A message's HTML, exactly as the server rendered it (classes of the reference's Markdown: other clients and
// stylesheets read them), with what only the browser can add: emoji glyphs for the emoji spans, mentions of the
// reader marked, spoilers that open, and previews of uploaded images.
import { memo, useLayoutEffect, useMemo, useRef } from 'react';
import { codeToChars } from '../emoji/chars';
import { loadKatexStyles, needsKatex } from './katex';
import './content.css';

const EMOJI_CLASS = /(?:^|\s)emoji-([0-9a-f-]+)(?:\s|$)/;

// Each step only where the HTML has what it changes (most messages have none of it).
function enhance(root: HTMLElement, html: string, me: number): void {
  if (html.includes('emoji')) {
    for (const span of root.querySelectorAll<HTMLElement>('span.emoji')) {
      const m = EMOJI_CLASS.exec(span.className);
      if (m && span.textContent?.startsWith(':')) {
        const chars = codeToChars(m[1]);
        if (chars) span.textContent = chars;
      }
    }
  }
  if (html.includes('mention')) {
    for (const el of root.querySelectorAll<HTMLElement>(`.user-mention[data-user-id="${me}"], .user-mention[data-user-id="*"], .topic-mention`)) el.classList.add('user-mention-me');
  }
  if (html.includes('spoiler-header')) {
    for (const header of root.querySelectorAll<HTMLElement>('.spoiler-header')) {
      header.tabIndex = 0;
      header.setAttribute('role', 'button');
      header.setAttribute('aria-expanded', 'false');
    }
  }
  // Links into this app open here, not in a new tab.
  if (html.includes('#narrow')) {
    for (const a of root.querySelectorAll<HTMLAnchorElement>('a[href*="#narrow"]')) {
      const href = a.getAttribute('href')!;
      if (href.startsWith('#narrow') || (a.origin === location.origin && a.hash.startsWith('#narrow'))) a.removeAttribute('target');
    }
  }
  if (html.includes('<img')) {
    for (const img of root.querySelectorAll<HTMLImageElement>('img:not(.emoji)')) {
      img.loading = 'lazy';
      img.decoding = 'async';
    }
  }
}

const IMAGE_LINK = /<a [^>]*href="(\/user_uploads\/[^"]+\.(?:png|jpe?g|gif|webp|avif))"[^>]*>/gi;

// Uploaded images linked from the message, shown below it (unless the server already made previews).
function imageLinks(html: string): string[] {
  if (html.includes('message_inline_image')) return [];
  return [...new Set([...html.matchAll(IMAGE_LINK)].map((m) => m[1].replace(/&amp;/g, '&')))].slice(0, 10);
}

export const MessageContent = memo(function MessageContent({ html, me }: { html: string; me: number }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current) enhance(ref.current, html, me);
    if (needsKatex(html)) loadKatexStyles();
  }, [html, me]);
  const images = useMemo(() => imageLinks(html), [html]);
  return (
    <>
      <div ref={ref} className="message_content rendered_markdown" dangerouslySetInnerHTML={{ __html: html }} />
      {images.length > 0 && (
        <div className="message_inline_images">
          {images.map((src) => (
            <div className="message_inline_image" key={src}>
              <a href={src} title={decodeURIComponent(src.split('/').pop() ?? '')}>
                <img src={src} alt={decodeURIComponent(src.split('/').pop() ?? '')} loading="lazy" decoding="async" />
              </a>
            </div>
          ))}
        </div>
      )}
    </>
  );
});
