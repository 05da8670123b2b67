// The search box (`/`): the reference's operators with suggestions for the word being typed — operators, then
// channels, topics, people and flags for their operands — and Enter to open the narrow.
import { useEffect, useMemo, useRef, useState } from 'react';
import { useServer, useUi } from '../data/hooks';
import { peopleList, sortedSubs } from '../data/selectors';
import { navigate } from '../app/router';
import { setUi, ui } from '../app/ui';
import { rank } from '../compose/autocomplete';
import { server } from '../data/session';
import { parseSearch, searchText, type SearchNames } from './parse';
import { Icon } from '../app/icons';
import './search.css';

export const searchRefs: { input: HTMLInputElement | null } = { input: null };

function names(): SearchNames {
  const s = server.get()!;
  return {
    channelIdByName: (n) => [...s.channels.values()].find((c) => c.name.toLowerCase() === n.toLowerCase())?.stream_id,
    channelName: (id) => s.channels.get(id)?.name,
    userId: (x) => [...s.users.values()].find((u) => u.email.toLowerCase() === x.toLowerCase() || u.full_name.toLowerCase() === x.toLowerCase())?.user_id,
    userEmail: (id) => s.users.get(id)?.email,
    me: s.me.userId,
  };
}

const OPERATOR_HINTS: [string, string][] = [
  ['channel:', 'Messages in a channel'], ['topic:', 'Messages in a topic'], ['sender:', 'Messages sent by someone'], ['dm:', 'Direct messages with someone'],
  ['is:starred', 'Starred messages'], ['is:mentioned', 'Messages that mention you'], ['is:unread', 'Unread messages'], ['is:dm', 'All direct messages'],
  ['is:resolved', 'Resolved topics'], ['has:link', 'Messages with links'], ['has:image', 'Messages with images'], ['has:attachment', 'Messages with files'],
  ['sender:me', 'Messages you sent'], ['channels:public', 'All public channels'],
];

interface Suggestion {
  text: string; // the whole search text if chosen
  label: string;
  detail?: string;
}

function useSuggestions(text: string): Suggestion[] {
  const subs = useServer((s) => sortedSubs(s.subs));
  const people = useServer((s) => peopleList(s.users));
  const topics = useServer((s) => s.topics);
  return useMemo(() => {
    const parts = text.split(/\s+/);
    const last = parts[parts.length - 1] ?? '';
    const head = parts.slice(0, -1).join(' ');
    const withHead = (word: string) => (head ? `${head} ${word}` : word);
    const out: Suggestion[] = [];
    const m = /^(-?)([a-z-]+):(.*)$/i.exec(last);
    if (m) {
      const [, neg, op, partial] = m;
      const q = partial.replace(/\+/g, ' ');
      const put = (operand: string, label: string, detail?: string) => out.push({ text: withHead(`${neg}${op}:${operand.replace(/ /g, '+')}`), label, detail });
      if (op === 'channel' || op === 'stream') for (const s of rank(subs, q, (x) => x.name, 6)) put(s.name, `#${s.name}`, s.description);
      else if (op === 'sender' || op === 'dm' || op === 'pm-with' || op === 'from') for (const u of rank(people, q, (x) => `${x.full_name} ${x.email}`, 6)) put(u.email, u.full_name, u.email);
      else if (op === 'topic') {
        const channelWord = /(?:^|\s)(?:channel|stream):(\S+)/.exec(head)?.[1]?.replace(/\+/g, ' ');
        const sub = subs.find((s) => s.name.toLowerCase() === channelWord?.toLowerCase());
        for (const t of rank(sub ? topics.get(sub.stream_id) ?? [] : [], q, (x) => x.name, 6)) put(t.name, t.name);
      } else if (op === 'is') for (const v of ['starred', 'mentioned', 'unread', 'dm', 'resolved', 'alerted', 'followed'].filter((v) => v.startsWith(q))) put(v, `is:${v}`);
      else if (op === 'has') for (const v of ['link', 'image', 'attachment'].filter((v) => v.startsWith(q))) put(v, `has:${v}`);
    } else if (last) {
      for (const [op, detail] of OPERATOR_HINTS.filter(([o]) => o.startsWith(last.toLowerCase())).slice(0, 4)) out.push({ text: withHead(op), label: op, detail });
      for (const s of rank(subs, last, (x) => x.name, 3)) out.push({ text: withHead(`channel:${s.name.replace(/ /g, '+')}`), label: `#${s.name}`, detail: 'Channel' });
      for (const u of rank(people, last, (x) => x.full_name, 3)) out.push({ text: withHead(`sender:${u.email}`), label: `Sent by ${u.full_name}`, detail: u.email });
    } else if (!text.trim()) {
      for (const [op, detail] of OPERATOR_HINTS.slice(0, 8)) out.push({ text: op, label: op, detail });
    }
    return out.slice(0, 9);
  }, [text, subs, people, topics]);
}

export function SearchBox() {
  const route = useUi((u) => u.route);
  const open = useUi((u) => u.searchOpen);
  const text = useUi((u) => u.searchText);
  const [focused, setFocused] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  const suggestions = useSuggestions(text);

  // The box shows the search of a search view.
  useEffect(() => {
    if (!open && route.view === 'messages' && route.terms.some((t) => t.operator === 'search')) setUi({ searchText: searchText(route.terms, names()) });
    else if (!open && !focused) setUi({ searchText: '' });
  }, [route, open, focused]);
  useEffect(() => setActive(-1), [text]);

  const go = (q: string) => {
    const terms = parseSearch(q, names());
    const near = terms.find((t) => t.operator === 'near');
    const rest = terms.filter((t) => t.operator !== 'near');
    setUi({ searchOpen: false, searchText: q });
    input.current?.blur();
    navigate({ view: 'messages', terms: rest, near: near ? Number(near.operand) : undefined });
  };

  const showList = focused && suggestions.length > 0;
  return (
    <form className="search-box" role="search" onSubmit={(e) => { e.preventDefault(); go(active >= 0 ? suggestions[active].text : text); }}>
      <span className="search-icon"><Icon name="search" /></span>
      <input
        ref={(el) => { input.current = el; searchRefs.input = el; }}
        type="search" value={text} placeholder="Search (/)" aria-label="Search messages"
        role="combobox" aria-expanded={showList} aria-controls="search-suggestions" aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `search-suggestion-${active}` : undefined}
        onFocus={() => { setFocused(true); setUi({ searchOpen: true }); }}
        onBlur={() => { setFocused(false); setUi({ searchOpen: false }); }}
        onChange={(e) => setUi({ searchText: e.target.value })}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            setUi({ searchText: '' });
            input.current?.blur();
          } else if (e.key === 'ArrowDown' && suggestions.length) {
            e.preventDefault();
            setActive((a) => (a + 1) % suggestions.length);
          } else if (e.key === 'ArrowUp' && suggestions.length) {
            e.preventDefault();
            setActive((a) => (a <= 0 ? suggestions.length - 1 : a - 1));
          } else if (e.key === 'Tab' && active >= 0) {
            e.preventDefault();
            setUi({ searchText: suggestions[active].text + (suggestions[active].text.endsWith(':') ? '' : ' ') });
          }
        }}
      />
      {showList && (
        <ul className="suggestions search-suggestions" id="search-suggestions" role="listbox">
          {suggestions.map((s, i) => (
            <li key={s.text + i} id={`search-suggestion-${i}`} role="option" aria-selected={i === active} className={i === active ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                if (s.text.endsWith(':')) setUi({ searchText: s.text });
                else go(s.text);
              }}>
              <span className="label">{s.label}</span>{s.detail && <span className="detail">{s.detail}</span>}
            </li>
          ))}
        </ul>
      )}
      {ui.get().route.view === 'messages' && text && !focused && (
        <button type="button" className="icon-button clear" aria-label="Clear search" onClick={() => { setUi({ searchText: '' }); navigate({ view: 'messages', terms: [] }); }}><Icon name="close" /></button>
      )}
    </form>
  );
}
