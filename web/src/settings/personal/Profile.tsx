// Profile: name, avatar (cropped to a square here, then uploaded), the organization's profile fields, status.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { Avatar } from '../../app/Avatar';
import type { ProfileField } from '../../api/types';
import { deleteAvatar, setProfileField, setStatus, updateSettings, uploadAvatar } from '../actions';
import { cropSquare } from '../crop';
import { Section, Status, TextSetting, Toggle, useRequest } from '../controls';

const FIELD_TYPES: Record<number, string> = { 1: 'text', 2: 'long', 3: 'select', 4: 'date', 5: 'url', 6: 'users', 7: 'external', 8: 'text' };

function PeopleField({ field, value, onSave }: { field: ProfileField; value: string; onSave(v: number[] | null): void }) {
  const users = useServer((s) => s.users);
  let ids: number[] = [];
  try {
    ids = JSON.parse(value || '[]') as number[];
  } catch { /* not a list */ }
  const people = [...users.values()].filter((u) => u.is_active && !u.is_bot).sort((a, b) => a.full_name.localeCompare(b.full_name));
  return (
    <div className="settings-field">
      <label htmlFor={`field-${field.id}`}>{field.name}</label>
      <select id={`field-${field.id}`} multiple size={4} value={ids.map(String)} onChange={(e) => {
        const picked = [...e.target.selectedOptions].map((o) => Number(o.value));
        onSave(picked.length ? picked : null);
      }}>
        {people.map((u) => <option key={u.user_id} value={u.user_id}>{u.full_name}</option>)}
      </select>
    </div>
  );
}

function FieldInput({ field, value, onSave }: { field: ProfileField; value: string; onSave(v: string | number[] | null): void }) {
  const kind = FIELD_TYPES[field.type] ?? 'text';
  if (kind === 'users') return <PeopleField field={field} value={value} onSave={onSave} />;
  if (kind === 'select') {
    let options: [string, string][] = [];
    try {
      options = Object.entries(JSON.parse(field.field_data || '{}') as Record<string, { text: string }>).map(([k, v]) => [k, v.text]);
    } catch { /* no options */ }
    return (
      <div className="settings-field">
        <label htmlFor={`field-${field.id}`}>{field.name}</label>
        <select id={`field-${field.id}`} value={value} onChange={(e) => onSave(e.target.value || null)}>
          <option value="">—</option>
          {options.map(([k, text]) => <option key={k} value={k}>{text}</option>)}
        </select>
      </div>
    );
  }
  return <TextSetting id={`field-${field.id}`} label={field.name} value={value} multiline={kind === 'long'} type={kind === 'date' ? 'date' : kind === 'url' ? 'url' : 'text'} onSave={(v) => onSave(v.trim() ? v : null)} />;
}

export default function Profile() {
  const me = useServer((s) => s.me);
  const user = useServer((s) => s.users.get(s.me.userId));
  const fields = useServer((s) => s.profileFields);
  const nameLocked = useServer((s) => !!s.realmSettings.name_changes_disabled && !s.me.isAdmin);
  const avatarLocked = useServer((s) => !!s.realmSettings.avatar_changes_disabled && !s.me.isAdmin);
  const status = useServer((s) => s.userStatus.get(s.me.userId));
  const [outcome, run] = useRequest();
  const [preview, setPreview] = useState<{ file: File; url: string } | null>(null);
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Your name">
        <TextSetting id="full-name" label="Full name" value={me.fullName} disabled={nameLocked} maxLength={100} onSave={(v) => void run(updateSettings({ full_name: v }), 'Name saved')} />
        {nameLocked && <p className="detail">Your organization does not allow changing names.</p>}
      </Section>
      <Section title="Avatar">
        <div className="avatar-edit">
          {preview ? <img className="avatar-preview" src={preview.url} alt="New avatar" width={64} height={64} /> : <Avatar userId={me.userId} size={64} />}
          {!avatarLocked && (
            <div className="settings-stack">
              <label className="button file-button">
                Choose an image…
                <input type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="sr-only" aria-label="Choose an avatar image" onChange={(e) => {
                  const file = e.target.files?.[0];
                  e.target.value = '';
                  if (file) void cropSquare(file).then((cropped) => setPreview({ file: cropped, url: URL.createObjectURL(cropped) }), (err: Error) => void run(Promise.reject(err)));
                }} />
              </label>
              {preview && (
                <span>
                  <button type="button" className="button primary" onClick={() => void run(uploadAvatar(preview.file), 'Avatar uploaded').then(() => setPreview(null))}>Use this avatar</button>{' '}
                  <button type="button" className="button" onClick={() => setPreview(null)}>Cancel</button>
                </span>
              )}
              {!preview && user?.avatar_url && <button type="button" className="button danger" onClick={() => void run(deleteAvatar(), 'Avatar removed')}>Remove avatar</button>}
              <p className="detail">The image is cropped to its central square.</p>
            </div>
          )}
        </div>
      </Section>
      {fields.length > 0 && (
        <Section title="Profile">
          {fields.map((f) => (
            <FieldInput key={f.id} field={f} value={user?.profile_data?.[f.id]?.value ?? ''} onSave={(v) => void run(setProfileField(f.id, v))} />
          ))}
        </Section>
      )}
      <Section title="Status">
        <TextSetting id="status-text" label="Status message" value={status?.status_text ?? ''} maxLength={60} onSave={(v) => void run(setStatus({ status_text: v }), 'Status saved')} />
        <Toggle label="Appear away to others" checked={!!status?.away} onChange={(away) => run(setStatus({ away }))} />
        {(status?.status_text || status?.emoji_name) && <button type="button" className="button" onClick={() => void run(setStatus({ status_text: '', emoji_name: '' }), 'Status cleared')}>Clear status</button>}
      </Section>
    </>
  );
}
