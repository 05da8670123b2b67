// `<time:…>`: the written time read as the reference reads it (a forgiving date parser: ISO 8601, "Jun 5th
// 2017, 10:30PM", "31 Dec 2017 5:30 am IST", or seconds since 1970), given as UTC; null when unreadable.

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_NAMES = new Map<string, number>();
['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].forEach((n, i) => {
  MONTH_NAMES.set(n, i + 1);
  MONTH_NAMES.set(MONTHS[i], i + 1);
});
MONTH_NAMES.set('sept', 9);
const WEEKDAYS = new Set(['mon', 'monday', 'tue', 'tues', 'tuesday', 'wed', 'wednesday', 'thu', 'thur', 'thurs', 'thursday', 'fri', 'friday', 'sat', 'saturday', 'sun', 'sunday']);
// Words and signs a date may contain that say nothing.
const JUMP = new Set(['at', 'on', 'and', 'ad', 'm', 't', 'of', 'st', 'nd', 'rd', 'th', ',', '.', ';', '-', '/', "'"]);

// Time zone abbreviations the reference understands (its common time zones), in minutes east of UTC.
const ZONES: Record<string, number> = {
  utc: 0, gmt: 0, z: 0, ut: 0, wet: 0, west: 60, bst: 60, cet: 60, cest: 120, met: 60, mest: 120, eet: 120, eest: 180, msk: 180,
  ist: 330, pkt: 300, npt: 345, ict: 420, wib: 420, hkt: 480, sgt: 480, awst: 480, pht: 480, jst: 540, kst: 540, acst: 570,
  acdt: 630, aest: 600, aedt: 660, nzst: 720, nzdt: 780, hst: -600, akst: -540, akdt: -480, pst: -480, pdt: -420, mst: -420,
  mdt: -360, cst: -360, cdt: -300, est: -300, edt: -240, ast: -240, adt: -180, nst: -210, ndt: -150, brt: -180, art: -180,
  sast: 120, cat: 120, eat: 180, wat: 60,
};

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function iso(ms: number): string | null {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) return null;
  const frac = d.getUTCMilliseconds() ? `.${pad(d.getUTCMilliseconds(), 3)}000` : '';
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac}Z`;
}

function parseDate(input: string): string | null {
  const tokens = input.toLowerCase().match(/[a-z]+|\d+(?:\.\d+)?|[+\-:/.,;']|\S/g);
  if (!tokens || !/\d/.test(input)) return null;
  const now = new Date();
  let year: number | null = null;
  let month: number | null = null;
  let day: number | null = null;
  let hour: number | null = null;
  let minute = 0;
  let second = 0;
  let ampm: 'am' | 'pm' | null = null;
  let offset: number | null = null;
  const bare: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (/^\d/.test(t)) {
      if (tokens[i + 1] === ':' && /^\d+$/.test(tokens[i + 2] ?? '')) {
        if (hour !== null) return null;
        hour = Number(t);
        minute = Number(tokens[i + 2]);
        i += 2;
        if (tokens[i + 1] === ':' && /^\d+(\.\d+)?$/.test(tokens[i + 2] ?? '')) {
          second = Number(tokens[i + 2]);
          i += 2;
        }
      } else if ((tokens[i + 1] === 'am' || tokens[i + 1] === 'pm') && hour === null) {
        hour = Number(t);
      } else if (t.length === 8 && !bare.length && year === null) {
        [year, month, day] = [Number(t.slice(0, 4)), Number(t.slice(4, 6)), Number(t.slice(6))];
      } else if (t.includes('.') || t.length > 4) return null;
      else bare.push(Number(t) * (t.length === 4 ? -1 : 1));
    } else if (MONTH_NAMES.has(t)) {
      if (month !== null) return null;
      month = MONTH_NAMES.get(t)!;
    } else if (t === 'am' || t === 'pm' || t === 'a' || t === 'p') {
      ampm = t.startsWith('a') ? 'am' : 'pm';
      if (tokens[i + 1] === '.' && tokens[i + 2] === 'm') i += 2;
    } else if ((t === '+' || t === '-') && hour !== null && /^\d+$/.test(tokens[i + 1] ?? '')) {
      let digits = tokens[i + 1];
      i++;
      if (tokens[i + 1] === ':' && /^\d\d$/.test(tokens[i + 2] ?? '')) {
        digits += tokens[i + 2];
        i += 2;
      }
      const h = digits.length <= 2 ? Number(digits) : Number(digits.slice(0, -2));
      const m = digits.length <= 2 ? 0 : Number(digits.slice(-2));
      offset = (t === '-' ? -1 : 1) * (h * 60 + m);
    } else if (Object.hasOwn(ZONES, t) && t.length > 1) {
      offset = ZONES[t];
    } else if (!WEEKDAYS.has(t) && !JUMP.has(t) && t !== 'z') return null;
  }
  // Bare numbers: a four-digit one is the year; the others fill day, then month, then year.
  for (const n of bare) {
    if (n < 0) {
      if (year !== null) return null;
      year = -n;
    } else if (month === null && day !== null) month = n;
    else if (day === null && month !== null) day = n;
    else if (month === null && bare.filter((x) => x >= 0).length >= 2) month = n;
    else if (day === null) day = n;
    else if (year === null) year = n < 100 ? n + (n < 50 ? 2000 : 1900) : n;
    else return null;
  }
  if (hour !== null && ampm === 'pm' && hour < 12) hour += 12;
  if (hour !== null && ampm === 'am' && hour === 12) hour = 0;
  const y = year ?? now.getUTCFullYear();
  const mo = month ?? now.getUTCMonth() + 1;
  const d = day ?? now.getUTCDate();
  const h = hour ?? 0;
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate() || h > 23 || minute > 59 || second >= 60) return null;
  const ms = Date.UTC(y, mo - 1, d, h, minute, Math.floor(second), Math.round((second % 1) * 1000)) - (offset ?? 0) * 60_000;
  return iso(ms);
}

const ISO = /^(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d)(?:\.(\d{1,6}))?)?)?\s*(z|[+-]\d\d(?::?\d\d)?)?$/i;

function parseIso(input: string): string | null {
  const m = ISO.exec(input.trim());
  if (!m) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  let offset = 0;
  if (zone && zone.toLowerCase() !== 'z') {
    const digits = zone.slice(1).replace(':', '');
    offset = (zone[0] === '-' ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0));
  }
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(Number(y), month, 0)).getUTCDate() || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const ms = Date.UTC(Number(y), month - 1, day, Number(h), Number(mi), Number(s), Number(frac.padEnd(3, '0').slice(0, 3))) - offset * 60_000;
  return iso(ms);
}

export function parseTimestamp(input: string): string | null {
  const parsed = parseIso(input) ?? parseDate(input);
  if (parsed !== null) return parsed;
  // Otherwise seconds since 1970.
  if (/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(input)) return iso(Number(input) * 1000);
  return null;
}
