// The emoji picker (loaded when first opened): search by name, recently used, the organization's custom emoji,
// then every emoji by category. Arrow keys move through the grid, Enter picks.
import { useEffect, useMemo, useRef, useState } from 'react';
import groups from 'virtual:emoji-groups';
import type { EmojiChoice } from '../data/actions';
import { useServer } from '../data/hooks';
import { rank } from '../compose/autocomplete';
import { customEmoji, DEFAULT_RECENT, loadUnicodeEmoji, recentEmoji, type EmojiEntry } from './data';
import { codeToChars } from './chars';
import './emoji.css';

interface Section {
  label: string;
  items: EmojiEntry[];
}

const COLUMNS = 9;

export default function EmojiPicker({ anchor, onPick, onClose }: { anchor?: DOMRect; onPick(e: EmojiChoice): void; onClose(): void }) {
  const url = useServer((s) => s.realm.emojiDataUrl);
  const realmEmoji = useServer((s) => s.realmEmoji);
  const [all, setAll] = useState<EmojiEntry[] | null>(null);
  const [error, setError] = useState('');
  const [query, setQuery] = useState('');
  const [focus, setFocus] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const grid = useRef<HTMLDivElement>(null);
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    input.current?.focus();
    void loadUnicodeEmoji(url).then(setAll, (e: Error) => setError(e.message));
    const away = (e: MouseEvent) => !panel.current?.contains(e.target as Node) && onClose();
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [url, onClose]);

  const sections = useMemo((): Section[] => {
    const custom = customEmoji(realmEmoji);
    const unicode = all ?? [];
    const byCode = new Map(unicode.map((e) => [e.code, e]));
    if (query.trim()) return [{ label: 'Results', items: rank([...custom, ...unicode], query.trim().replace(/^:|:$/g, ''), (e) => e.names.join(' '), 120) }];
    const recent = (recentEmoji().length ? recentEmoji() : DEFAULT_RECENT).map((r) => byCode.get(r.code) ?? custom.find((c) => c.code === r.code) ?? { ...r, names: [r.name], chars: r.type === 'unicode_emoji' ? codeToChars(r.code) : undefined });
    const out: Section[] = [{ label: 'Recently used', items: recent }];
    if (custom.length) out.push({ label: 'Custom emoji', items: custom });
    for (const g of groups) out.push({ label: g.label, items: g.codes.split(' ').map((c) => byCode.get(c)).filter((e): e is EmojiEntry => !!e) });
    return out.filter((s) => s.items.length);
  }, [all, realmEmoji, query]);

  const flat = useMemo(() => sections.flatMap((s) => s.items), [sections]);
  useEffect(() => setFocus(0), [query]);
  useEffect(() => {
    grid.current?.querySelector<HTMLElement>(`[data-index="${focus}"]`)?.scrollIntoView({ block: 'nearest' });
  }, [focus]);

  const onKey = (e: React.KeyboardEvent) => {
    const move = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: COLUMNS, ArrowUp: -COLUMNS }[e.key];
    if (move !== undefined && flat.length) {
      e.preventDefault();
      setFocus((f) => Math.max(0, Math.min(flat.length - 1, f + move)));
    } else if (e.key === 'Enter' && flat[focus]) {
      e.preventDefault();
      onPick(flat[focus]);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };

  const top = anchor ? Math.min(anchor.bottom + 6, window.innerHeight - 420) : window.innerHeight / 2 - 200;
  const left = anchor ? Math.min(Math.max(8, anchor.left - 160), window.innerWidth - 360) : window.innerWidth / 2 - 176;
  let index = 0;
  return (
    <div ref={panel} className="popover emoji-picker" role="dialog" aria-label="Emoji" style={{ top: Math.max(8, top), left }} onKeyDown={onKey}>
      <input ref={input} type="search" className="emoji-search" placeholder="Search emoji" aria-label="Search emoji" value={query} onChange={(e) => setQuery(e.target.value)}
        aria-activedescendant={flat[focus] ? `emoji-${focus}` : undefined} aria-controls="emoji-grid" />
      <div ref={grid} className="emoji-grid" id="emoji-grid" role="listbox" aria-label="Emoji">
        {error && <p className="error-text">Could not load emoji: {error}</p>}
        {!all && !error && <p className="loading">Loading emoji…</p>}
        {sections.map((s) => (
          <div key={s.label} className="emoji-section" role="group" aria-label={s.label}>
            <h3>{s.label}</h3>
            <div className="emoji-cells">
              {s.items.map((e) => {
                const i = index++;
                return (
                  <button key={`${s.label}:${e.type}:${e.code}`} type="button" role="option" id={`emoji-${i}`} data-index={i} aria-selected={i === focus}
                    className={i === focus ? 'focused' : undefined} title={`:${e.name}:`} aria-label={e.name.replace(/_/g, ' ')} tabIndex={-1}
                    onMouseEnter={() => setFocus(i)} onClick={() => onPick(e)}>
                    {e.image ? <img src={e.image} alt="" /> : e.chars ?? codeToChars(e.code)}
                  </button>
                );
              })}
            </div>
          </div>
        ))}
      </div>
      <div className="emoji-footer">{flat[focus] ? `:${flat[focus].name}:` : ' '}</div>
    </div>
  );
}
