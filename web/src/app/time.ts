// Times in the user's clock (twenty_four_hour_time) and time zone; the full date on hover.

export function timeOfDay(ts: number, twentyFour: boolean, timeZone?: string): string {
  return new Date(ts * 1000).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit', hour12: !twentyFour, timeZone: timeZone || undefined });
}

export function fullDate(ts: number, twentyFour: boolean, timeZone?: string): string {
  return new Date(ts * 1000).toLocaleString(undefined, {
    weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: !twentyFour, timeZone: timeZone || undefined,
  });
}

export function dayLabel(ts: number, timeZone?: string): string {
  const d = new Date(ts * 1000);
  const today = new Date();
  const yesterday = new Date(Date.now() - 86_400_000);
  const same = (a: Date, b: Date) => a.toDateString() === b.toDateString();
  if (same(d, today)) return 'Today';
  if (same(d, yesterday)) return 'Yesterday';
  return d.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric', year: d.getFullYear() === today.getFullYear() ? undefined : 'numeric', timeZone: timeZone || undefined });
}

export function relative(ts: number): string {
  const s = Math.max(0, Date.now() / 1000 - ts);
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86400)} d ago`;
}
