// The interface's icons, drawn inline (no icon font, no emoji font needed): 16px strokes in currentColor.
import type { ReactElement } from 'react';

const PATHS: Record<string, ReactElement> = {
  inbox: <><path d="M2 9h3.5l1 2h3l1-2H14" /><path d="M3.5 3h9L14 9v4H2V9z" /></>,
  clock: <><circle cx="8" cy="8" r="6" /><path d="M8 4.5V8l2.5 1.5" /></>,
  feed: <><path d="M3 4h10M3 8h10M3 12h10" /></>,
  at: <><circle cx="8" cy="8" r="2.5" /><path d="M10.5 8v1a1.75 1.75 0 0 0 3.5 0V8a6 6 0 1 0-2.4 4.8" /></>,
  star: <path d="M8 2l1.8 3.8 4.2.5-3.1 2.9.8 4.1L8 11.3 4.3 13.3l.8-4.1L2 6.3l4.2-.5z" />,
  pencil: <><path d="M11 2.5l2.5 2.5L6 12.5H3.5V10z" /><path d="M9.5 4l2.5 2.5" /></>,
  calendar: <><rect x="2.5" y="3.5" width="11" height="10" rx="1.5" /><path d="M2.5 7h11M5.5 2v3M10.5 2v3" /></>,
  plus: <path d="M8 3v10M3 8h10" />,
  smile: <><circle cx="8" cy="8" r="6" /><path d="M5.5 9.5a3 3 0 0 0 5 0" /><path d="M6 6.5h.01M10 6.5h.01" strokeWidth="2" /></>,
  dots: <path d="M3.5 8h.01M8 8h.01M12.5 8h.01" strokeWidth="2.6" />,
  close: <path d="M4 4l8 8M12 4l-8 8" />,
  clip: <path d="M12.5 7.5l-4.8 4.8a3 3 0 0 1-4.2-4.2l5.3-5.3a2 2 0 0 1 2.8 2.8L6.4 10.8a1 1 0 0 1-1.4-1.4l4.6-4.6" />,
  menu: <path d="M2.5 4h11M2.5 8h11M2.5 12h11" />,
  search: <><circle cx="7" cy="7" r="4.5" /><path d="M10.5 10.5L14 14" /></>,
  eye: <><path d="M1.5 8s2.5-4.5 6.5-4.5S14.5 8 14.5 8 12 12.5 8 12.5 1.5 8 1.5 8z" /><circle cx="8" cy="8" r="2" /></>,
  lock: <><rect x="3.5" y="7" width="9" height="7" rx="1.5" /><path d="M5.5 7V5a2.5 2.5 0 0 1 5 0v2" /></>,
  gear: <><circle cx="8" cy="8" r="4.6" /><circle cx="8" cy="8" r="1.7" /><path d="M12.60 8.00L14.40 8.00M11.25 11.25L12.53 12.53M8.00 12.60L8.00 14.40M4.75 11.25L3.47 12.53M3.40 8.00L1.60 8.00M4.75 4.75L3.47 3.47M8.00 3.40L8.00 1.60M11.25 4.75L12.53 3.47" strokeWidth="2.4" strokeLinecap="butt" /></>,
  send: <path d="M2.5 8L13.5 2.5 11 13.5 8 9z M8 9l5.5-6.5" />,
};

export function Icon({ name, size = 16, label }: { name: keyof typeof PATHS | string; size?: number; label?: string }) {
  return (
    <svg className="icon" width={size} height={size} viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinecap="round" strokeLinejoin="round"
      role={label ? 'img' : undefined} aria-label={label} aria-hidden={label ? undefined : true} focusable="false">
      {PATHS[name]}
    </svg>
  );
}
