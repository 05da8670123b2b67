// Math rendered by the server (KaTeX's HTML, class "katex") needs KaTeX's stylesheet and fonts: loaded once, when
// the first message holding some is shown.
let loaded: Promise<unknown> | null = null;

export function needsKatex(html: string): boolean {
  return html.includes('class="katex');
}

export function loadKatexStyles(): void {
  loaded ??= import('katex/dist/katex.min.css').catch(() => {
    loaded = null;
  });
}
