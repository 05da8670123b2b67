// Times in the user's clock (twenty_four_hour_time) and time zone; the full date on hover. Formatters are made
// once per kind (making one is costly, and a feed formats thousands of times).

// A time zone the browser does not know is the browser's own.
const zones = new Map<string, string | undefined>();
function zone(timeZone?: string): string | undefined {
  if (!timeZone) return undefined;
  if (!zones.has(timeZone)) {
    try {
      new Intl.DateTimeFormat(undefined, { timeZone });
      zones.set(timeZone, timeZone);
    } catch {
      zones.set(timeZone, undefined);
    }
  }
  return zones.get(timeZone);
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${kind}|${options.hour12}|${options.timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.DateTimeFormat(undefined, options)));
  return f;
}

export function timeOfDay(ts: number, twentyFour: boolean, timeZone?: string): string {
  return formatter('time', { hour: 'numeric', minute: '2-digit', hour12: !twentyFour, timeZone: zone(timeZone) }).format(ts * 1000);
}

export function fullDate(ts: number, twentyFour: boolean, timeZone?: string): string {
  return formatter('full', {
    weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: !twentyFour, timeZone: zone(timeZone),
  }).format(ts * 1000);
}

const dayKey = (d: Date, timeZone?: string) => formatter('day', { year: 'numeric', month: 'numeric', day: 'numeric', timeZone: zone(timeZone) }).format(d);

export function dayLabel(ts: number, timeZone?: string): string {
  const d = new Date(ts * 1000);
  const key = dayKey(d, timeZone);
  if (key === dayKey(new Date(), timeZone)) return 'Today';
  if (key === dayKey(new Date(Date.now() - 86_400_000), timeZone)) return 'Yesterday';
  const thisYear = d.getFullYear() === new Date().getFullYear();
  return formatter(thisYear ? 'date' : 'dateYear', { weekday: 'short', month: 'short', day: 'numeric', year: thisYear ? undefined : 'numeric', timeZone: zone(timeZone) }).format(d);
}

// The day a moment falls on, as a key (cached by the hour: messages come many to an hour).
const dayOfHour = new Map<number, string>();
export function dayOf(ts: number): string {
  const hour = Math.floor(ts / 3600);
  let key = dayOfHour.get(hour);
  if (key === undefined) {
    if (dayOfHour.size > 5000) dayOfHour.clear();
    key = new Date(ts * 1000).toDateString();
    dayOfHour.set(hour, key);
  }
  return key;
}

export function relative(ts: number): string {
  const s = Math.max(0, Date.now() / 1000 - ts);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
