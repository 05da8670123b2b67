// Linkifiers: an organization's patterns that turn matching text into links, in message content and topics.
// Patterns are RE2 syntax, as the reference server's: named groups are `(?P<name>...)`, and matching takes linear
// time whatever an administrator writes (no backtracking, so no pattern can stall rendering).
import { RE2JS } from 're2js';
import { UriTemplate } from '../lib/uri-template.js';
import type { Linkifier } from '../store/linkifiers.js';

export interface CompiledLinkifier {
  id: number;
  re: RE2JS;
  template: UriTemplate;
  groups: string[];
}

export interface LinkifierMatch { start: number; end: number; text: string; url: string }

// A match must follow the start, white space (any Unicode space) or an opening delimiter, and not run on into
// a letter or digit. Group 2 is what gets linked; the delimiters around it stay text.
const prepared = (pattern: string) => `(^|\\s|\u0085|\\pZ|['"(,:<])(${pattern})($|[^\\pL\\pN])`;

// The pattern alone is compiled first, so that an error quotes only what the administrator wrote.
function compilePattern(pattern: string): RE2JS | string {
  try {
    RE2JS.compile(pattern);
    return RE2JS.compile(prepared(pattern));
  } catch (err) {
    return String((err as Error).message ?? err).replace(/^error parsing regexp: /, '');
  }
}

// Compiling costs far more than matching, and linkifiers change rarely: keep the compiled forms.
const compiled = new Map<string, CompiledLinkifier | null>();

export function compileLinkifier(l: Linkifier): CompiledLinkifier | null {
  const key = `${l.id}\u0000${l.pattern}\u0000${l.urlTemplate}`;
  let c = compiled.get(key);
  if (c === undefined) {
    const re = compilePattern(l.pattern);
    const template = UriTemplate.parse(l.urlTemplate);
    c = typeof re === 'string' || !template ? null : { id: l.id, re, template, groups: Object.keys(re.namedGroups()) };
    if (compiled.size >= 1000) compiled.clear();
    compiled.set(key, c);
  }
  return c;
}

export const compileLinkifiers = (list: Linkifier[]) => list.map(compileLinkifier).filter((c): c is CompiledLinkifier => c !== null);

// What is wrong with a pattern and template, as the reference server reports it: the field and the message.
export function linkifierProblem(pattern: string, urlTemplate: string): { field: string; message: string } | null {
  if (!pattern) return { field: 'pattern', message: 'This field cannot be blank.' };
  if (!urlTemplate) return { field: 'url_template', message: 'This field cannot be blank.' };
  const template = UriTemplate.parse(urlTemplate);
  if (!template) return { field: 'url_template', message: 'Invalid URL template.' };
  const re = compilePattern(pattern);
  if (typeof re === 'string') return { field: '__all__', message: `Bad regular expression: ${re}` };
  const groups = new Set(Object.keys(re.namedGroups()));
  const vars = template.variableNames;
  const missingInPattern = [...vars].filter((v) => !groups.has(v)).sort()[0];
  if (missingInPattern) return { field: '__all__', message: `Group '${missingInPattern}' in URL template is not present in linkifier pattern.` };
  const missingInTemplate = [...groups].filter((g) => !vars.has(g)).sort()[0];
  if (missingInTemplate) return { field: '__all__', message: `Group '${missingInTemplate}' in linkifier pattern is not present in URL template.` };
  return null;
}

// Every match of one linkifier, left to right. The search resumes at the end of each match, so the delimiter
// after it may start the next one.
export function linkifierMatches(text: string, l: CompiledLinkifier): LinkifierMatch[] {
  const out: LinkifierMatch[] = [];
  const m = l.re.matcher(text);
  let pos = 0;
  while (pos <= text.length && m.find(pos)) {
    const start = m.start(2);
    const end = m.end(2);
    if (end > start) {
      const values: Record<string, string | null> = {};
      for (const g of l.groups) values[g] = m.group(g);
      out.push({ start, end, text: text.slice(start, end), url: l.template.expand(values) });
    }
    pos = end > pos ? end : pos + 1;
  }
  return out;
}

// A topic's links (§2.4 topic_links): linkifier matches, an earlier linkifier winning an overlap, then the web
// addresses written in the topic; in the order they appear.
export function topicLinks(
  topic: string,
  linkifiers: CompiledLinkifier[],
  webLinks: (text: string) => { index: number; text: string; url: string }[],
  safe: (url: string) => boolean,
): { text: string; url: string }[] {
  if (!topic) return [];
  const taken: LinkifierMatch[] = [];
  for (const l of linkifiers) {
    for (const m of linkifierMatches(topic, l)) {
      if (safe(m.url) && !taken.some((t) => m.start < t.end && t.start < m.end)) taken.push(m);
    }
  }
  const found = [...taken.map((m) => ({ index: m.start, text: m.text, url: m.url })), ...webLinks(topic)];
  return found.sort((a, b) => a.index - b.index).map(({ text, url }) => ({ text, url }));
}

// A linkifier as a RegExp-like matcher for the inline patterns: `exec` from `lastIndex`, giving the delimiter
// before (1), the match (2), the delimiter after (3), and the expanded address as the group `url`.
export function linkifierMatcher(l: CompiledLinkifier): RegExp {
  // Making a matcher reads the whole text: one is kept for the text being searched.
  let cached: { text: string; m: ReturnType<RE2JS['matcher']> } | null = null;
  const matcher = {
    lastIndex: 0,
    exec(text: string): RegExpExecArray | null {
      if (cached?.text !== text) cached = { text, m: l.re.matcher(text) };
      const m = cached.m;
      if (matcher.lastIndex > text.length || !m.find(matcher.lastIndex)) return null;
      const values: Record<string, string | null> = {};
      for (const g of l.groups) values[g] = m.group(g);
      const result = [m.group(0) ?? '', m.group(1) ?? '', m.group(2) ?? '', m.group(3) ?? ''] as unknown as RegExpExecArray;
      result.index = m.start(0);
      result.groups = { url: l.template.expand(values) };
      matcher.lastIndex = m.end(0) > m.start(0) ? m.end(0) : m.end(0) + 1;
      return result;
    },
  };
  return matcher as unknown as RegExp;
}
