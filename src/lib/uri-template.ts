// RFC 6570 URI templates, for linkifiers: parsing with validation, the variable names, and expansion with
// string values (a linkifier's named groups). Values are never lists or maps, so `*` changes nothing.
type Op = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface VarSpec { name: string; prefix?: number }
type Part = { literal: string } | { op: Op; vars: VarSpec[] };

const OPS: Record<Op, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
};

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*$/;
// Characters RFC 6570 forbids in literals (a `%` must start a percent-encoded triplet).
const BAD_LITERAL = /[\u0000-\u0020"'<>\\^`{|}\u007f]|%(?![0-9A-Fa-f]{2})/;

export class UriTemplate {
  private constructor(private readonly parts: Part[]) {}

  // Null when the text is not a valid template.
  static parse(text: string): UriTemplate | null {
    const parts: Part[] = [];
    let i = 0;
    while (i < text.length) {
      const open = text.indexOf('{', i);
      const literal = text.slice(i, open < 0 ? undefined : open);
      if (literal.includes('}') || BAD_LITERAL.test(literal)) return null;
      if (literal) parts.push({ literal });
      if (open < 0) break;
      const close = text.indexOf('}', open);
      if (close < 0) return null;
      let body = text.slice(open + 1, close);
      let op: Op = '';
      if (body && '+#./;?&'.includes(body[0])) {
        op = body[0] as Op;
        body = body.slice(1);
      }
      const vars: VarSpec[] = [];
      for (const spec of body.split(',')) {
        const m = /^([^:*]+)(?::([1-9]\d{0,3})|(\*))?$/.exec(spec);
        if (!m || !VARNAME.test(m[1])) return null;
        vars.push({ name: m[1], ...(m[2] ? { prefix: Number(m[2]) } : {}) });
      }
      parts.push({ op, vars });
      i = close + 1;
    }
    return new UriTemplate(parts);
  }

  get variableNames(): Set<string> {
    const names = new Set<string>();
    for (const p of this.parts) if ('vars' in p) p.vars.forEach((v) => names.add(v.name));
    return names;
  }

  expand(values: Record<string, string | null | undefined>): string {
    let out = '';
    for (const p of this.parts) {
      if ('literal' in p) {
        out += encode(p.literal, true);
        continue;
      }
      const o = OPS[p.op];
      const pieces: string[] = [];
      for (const v of p.vars) {
        const raw = values[v.name];
        if (raw === null || raw === undefined) continue;
        const value = encode(v.prefix ? [...raw].slice(0, v.prefix).join('') : raw, o.reserved);
        pieces.push(o.named ? (value ? `${v.name}=${value}` : `${v.name}${o.ifEmpty}`) : value);
      }
      if (pieces.length) out += o.first + pieces.join(o.sep);
    }
    return out;
  }

  // The legacy `%(name)s` form of a simple template, for clients of the old linkifier format.
  legacyFormat(): string {
    return this.parts
      .map((p) => ('literal' in p ? p.literal : OPS[p.op].first + p.vars.map((v) => (OPS[p.op].named ? `${v.name}=` : '') + `%(${v.name})s`).join(OPS[p.op].sep)))
      .join('');
  }
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

// Unreserved characters stay; with `reserved`, reserved characters and existing %XX triplets stay too.
function encode(text: string, reserved: boolean): string {
  let out = '';
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (reserved && ch === '%' && /^%[0-9A-Fa-f]{2}/.test(text.slice(i, i + 3))) {
      out += text.slice(i, i + 3);
      i += 3;
      continue;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) out += '%EF%BF%BD'; // a lone surrogate has no UTF-8 form
    else out += UNRESERVED.test(ch) || (reserved && RESERVED.test(ch)) ? ch : encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
    i += ch.length;
  }
  return out;
}
