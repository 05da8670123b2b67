// Math with KaTeX, as the reference renders it: `$$…$$` inline and ```` ```math ```` blocks in display mode;
// TeX KaTeX cannot parse is shown as written in a `tex-error` span.
import { createRequire } from 'node:module';
import type Katex from 'katex';

// Beyond these, a formula is not rendered (shown as an error): KaTeX's own limits keep rendering linear, these
// keep a hostile formula's output small.
const MAX_TEX_LENGTH = 10_000;
const MAX_EXPAND = 1000;

// KaTeX is loaded at the first formula (8 MB an idle server need not hold).
const require = createRequire(import.meta.url);
let loaded: typeof Katex | undefined;
const katex = (): typeof Katex => (loaded ??= require('katex') as typeof Katex);

export function renderTex(tex: string, inline: boolean): string | null {
  if (tex.length > MAX_TEX_LENGTH) return null;
  try {
    return katex().renderToString(tex, { displayMode: !inline, throwOnError: true, maxExpand: MAX_EXPAND, maxSize: 100, trust: false });
  } catch {
    return null;
  }
}

// Django's escape, which the reference applies to a math block it cannot render.
const escapeAll = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

export const texError = (tex: string) => `<span class="tex-error">${escapeAll(tex)}</span>`;
