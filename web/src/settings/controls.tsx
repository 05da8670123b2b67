// The overlay's building blocks: labelled controls bound to a value and a change, the status of the last
// request (saved, or the server's message), and the group picker of group-based permissions.
import { useRef, useState, type ReactNode } from 'react';
import type { GroupSettingValue, PermissionSettingInfo, UserGroup } from '../api/types';
import { systemGroupLabel } from './labels';

export type Outcome = { kind: 'idle' } | { kind: 'busy' } | { kind: 'saved'; text: string } | { kind: 'error'; text: string };

// A panel's requests: one outcome shown at a time, the server's own message on failure. Changes made in quick
// succession are in flight together: "Saved" shows only once all of them are, and a failure among them stays
// shown rather than being covered by a later success.
export function useRequest(): [Outcome, <T>(p: Promise<T>, done?: string) => Promise<T | undefined>] {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const batch = useRef({ pending: 0, error: undefined as string | undefined });
  const run = async <T,>(p: Promise<T>, done = 'Saved'): Promise<T | undefined> => {
    const b = batch.current;
    if (b.pending++ === 0) b.error = undefined;
    setOutcome({ kind: 'busy' });
    try {
      return await p;
    } catch (err) {
      b.error = (err as Error).message;
      return undefined;
    } finally {
      if (--b.pending === 0) setOutcome(b.error === undefined ? { kind: 'saved', text: done } : { kind: 'error', text: b.error });
      else if (b.error !== undefined) setOutcome({ kind: 'error', text: b.error });
    }
  };
  return [outcome, run];
}

export function Status({ outcome }: { outcome: Outcome }) {
  if (outcome.kind === 'error') return <p className="settings-status error-text" role="alert">{outcome.text}</p>;
  return <p className="settings-status" role="status">{outcome.kind === 'saved' ? `✓ ${outcome.text}` : outcome.kind === 'busy' ? 'Saving…' : ''}</p>;
}

export function Section({ title, children, note }: { title: string; children: ReactNode; note?: ReactNode }) {
  return (
    <section className="settings-section">
      <h3>{title}</h3>
      {note && <p className="detail">{note}</p>}
      {children}
    </section>
  );
}

// A control's change shows at once; the server's event confirms it (the value then comes back as the prop),
// a refusal puts the old value back. `change` returns what run() returns: undefined when the request failed.
type Change<V> = (v: V) => Promise<unknown> | void;

function usePending<V>(value: V, change: Change<V>): [V, (v: V) => void] {
  const [pending, setPending] = useState<{ v: V; from: V } | null>(null);
  const shown = pending && pending.from === value ? pending.v : value;
  const set = (v: V) => {
    setPending({ v, from: value });
    void Promise.resolve(change(v)).then((ok) => ok === undefined && setPending(null));
  };
  return [shown, set];
}

export function Check({ checked, onChange, label, disabled }: { checked: boolean; onChange: Change<boolean>; label: string; disabled?: boolean }) {
  const [shown, set] = usePending(checked, onChange);
  return <input type="checkbox" aria-label={label} checked={shown} disabled={disabled} onChange={(e) => set(e.target.checked)} />;
}

export function Toggle({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange: Change<boolean>; disabled?: boolean }) {
  const [shown, set] = usePending(checked, onChange);
  return (
    <label className="settings-toggle">
      <input type="checkbox" checked={shown} disabled={disabled} onChange={(e) => set(e.target.checked)} /> {label}
    </label>
  );
}

export function Choice<V extends string | number>({ id, label, value, options, onChange, disabled }: {
  id: string; label: string; value: V; options: [V, string][]; onChange: Change<V>; disabled?: boolean;
}) {
  const [shown, set] = usePending(value, onChange);
  return (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={String(shown)} disabled={disabled} onChange={(e) => {
        const picked = options.find(([v]) => String(v) === e.target.value);
        if (picked) set(picked[0]);
      }}>
        {options.map(([v, text]) => <option key={String(v)} value={String(v)}>{text}</option>)}
      </select>
    </div>
  );
}

// A text value saved on demand (Save, or Enter).
export function TextSetting({ id, label, value, onSave, multiline, disabled, maxLength, type = 'text' }: {
  id: string; label: string; value: string; onSave(v: string): void; multiline?: boolean; disabled?: boolean; maxLength?: number; type?: string;
}) {
  const [text, setText] = useState(value);
  const [base, setBase] = useState(value);
  if (value !== base) {
    // Changed elsewhere (an event): show the new value unless the person is editing.
    setBase(value);
    if (text === base) setText(value);
  }
  const changed = text !== value;
  return (
    <form className="settings-field" onSubmit={(e) => { e.preventDefault(); if (changed) onSave(text); }}>
      <label htmlFor={id}>{label}</label>
      <div className="settings-inline">
        {multiline
          ? <textarea id={id} value={text} disabled={disabled} maxLength={maxLength} rows={3} onChange={(e) => setText(e.target.value)} />
          : <input id={id} type={type} value={text} disabled={disabled} maxLength={maxLength} onChange={(e) => setText(e.target.value)} />}
        {!disabled && <button type="submit" className="button" disabled={!changed}>Save</button>}
      </div>
    </form>
  );
}

const SYSTEM_ORDER = ['role:internet', 'role:everyone', 'role:members', 'role:fullmembers', 'role:moderators', 'role:administrators', 'role:owners', 'role:nobody'];

// The groups a permission may be given to, as the server's permission metadata allows.
export function groupOptions(groups: Map<number, UserGroup>, info: PermissionSettingInfo | undefined): [number, string][] {
  const all = [...groups.values()].filter((g) => !g.deactivated);
  const system = all.filter((g) => g.is_system_group).filter((g) => {
    if (g.name === 'role:internet') return !!info?.allow_internet_group;
    if (g.name === 'role:nobody') return info?.allow_nobody_group !== false;
    if (g.name === 'role:everyone') return info?.allow_everyone_group !== false;
    if (info?.allowed_system_groups?.length) return info.allowed_system_groups.includes(g.name);
    return true;
  }).sort((a, b) => SYSTEM_ORDER.indexOf(a.name) - SYSTEM_ORDER.indexOf(b.name));
  const own = info?.require_system_group ? [] : all.filter((g) => !g.is_system_group).sort((a, b) => a.name.localeCompare(b.name));
  return [...system.map((g): [number, string] => [g.id, systemGroupLabel(g.name)]), ...own.map((g): [number, string] => [g.id, g.name])];
}

export function describeGroupValue(groups: Map<number, UserGroup>, value: GroupSettingValue | undefined, userName: (id: number) => string): string {
  if (value === undefined) return 'Not set';
  if (typeof value === 'number') {
    const g = groups.get(value);
    return g ? (g.is_system_group ? systemGroupLabel(g.name) : g.name) : `Group ${value}`;
  }
  const parts = [...value.direct_subgroups.map((id) => describeGroupValue(groups, id, userName)), ...value.direct_members.map(userName)];
  return parts.length ? parts.join(', ') : 'Nobody';
}

// One group-based permission: a group, or (kept as it is) a combination set elsewhere.
export function GroupPicker({ id, label, value, groups, info, onChange, disabled, userName }: {
  id: string; label: string; value: GroupSettingValue | undefined; groups: Map<number, UserGroup>; info: PermissionSettingInfo | undefined;
  onChange: Change<number>; disabled?: boolean; userName(id: number): string;
}) {
  const options = groupOptions(groups, info);
  const [shown, set] = usePending(value, onChange as Change<GroupSettingValue | undefined>);
  const custom = typeof shown !== 'number';
  if (disabled) {
    return (
      <div className="settings-field">
        <span className="label">{label}</span>
        <span className="settings-value" id={id}>{describeGroupValue(groups, value, userName)}</span>
      </div>
    );
  }
  return (
    <div className="settings-field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="group-picker" value={custom ? 'custom' : String(shown)} onChange={(e) => e.target.value !== 'custom' && set(Number(e.target.value))}>
        {custom && <option value="custom">{describeGroupValue(groups, shown, userName)}</option>}
        {options.map(([gid, name]) => <option key={gid} value={gid}>{name}</option>)}
      </select>
    </div>
  );
}

export function Confirm({ label, onConfirm, danger = true, children }: { label: string; onConfirm(): void; danger?: boolean; children: ReactNode }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" className={`button${danger ? ' danger' : ''}`} onClick={() => setAsking(true)}>{children}</button>;
  return (
    <span className="confirm">
      {label}{' '}
      <button type="button" className="button danger" onClick={() => { setAsking(false); onConfirm(); }}>Yes</button>{' '}
      <button type="button" className="button" onClick={() => setAsking(false)}>No</button>
    </span>
  );
}

// A bare menu (in a table row) whose choice shows at once.
export function Select({ label, value, options, onChange }: { label: string; value: number; options: [number, string][]; onChange: Change<number> }) {
  const [shown, set] = usePending(value, onChange);
  return (
    <select aria-label={label} value={shown} onChange={(e) => set(Number(e.target.value))}>
      {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
    </select>
  );
}
