// Announces new messages of the view being read to screen readers (polite, and at most every few seconds).
import { useEffect, useRef, useState } from 'react';
import { onEvents } from '../data/session';
import { matches } from '../data/narrow';
import { matchContext } from '../data/events/messages';
import type { Message } from '../api/types';
import { ui } from './ui';

export function LiveRegion() {
  const [text, setText] = useState('');
  const last = useRef(0);
  useEffect(() => onEvents((events, _before, after) => {
    const route = ui.get().route;
    if (route.view !== 'messages') return;
    const ctx = matchContext(after);
    const fresh = events.filter((e) => e.type === 'message').map((e) => e.message as Message)
      .filter((m) => m.sender_id !== after.me.userId && matches(route.terms, m, ctx) !== false);
    if (!fresh.length || Date.now() - last.current < 3000) return;
    last.current = Date.now();
    const m = fresh[fresh.length - 1];
    setText(fresh.length === 1 ? `New message from ${m.sender_full_name}` : `${fresh.length} new messages`);
  }), []);
  return <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" id="live-region">{text}</div>;
}
