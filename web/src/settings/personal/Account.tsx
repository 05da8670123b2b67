// Account and privacy: the e-mail address (a change is confirmed from the new address), the password, the API
// key (shown after the password is entered again, as the reference web app does), and what others may see.
import { useState } from 'react';
import { useServer } from '../../data/hooks';
import { changePassword, fetchApiKey, regenerateOwnKey, requestEmailChange, setSetting } from '../actions';
import { Choice, Section, Status, Toggle, useRequest } from '../controls';

const EMAIL_VISIBILITY: [number, string][] = [[1, 'Everyone'], [2, 'Members only'], [3, 'Administrators only'], [4, 'Nobody'], [5, 'Moderators only']];

function PasswordForm() {
  const [outcome, run] = useRequest();
  const [old, setOld] = useState('');
  const [next, setNext] = useState('');
  return (
    <form className="settings-form" onSubmit={(e) => {
      e.preventDefault();
      void run(changePassword(old, next), 'Password changed').then((ok) => ok !== undefined && (setOld(''), setNext('')));
    }}>
      <label htmlFor="old-password">Current password</label>
      <input id="old-password" type="password" autoComplete="current-password" value={old} onChange={(e) => setOld(e.target.value)} required />
      <label htmlFor="new-password">New password</label>
      <input id="new-password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} required minLength={6} />
      <div><button type="submit" className="button primary" disabled={!old || !next}>Change password</button></div>
      <Status outcome={outcome} />
    </form>
  );
}

function ApiKey() {
  const [outcome, run] = useRequest();
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  if (key) {
    return (
      <div className="settings-stack">
        <p>Your API key: <code className="api-key">{key}</code></p>
        <p className="detail">Anyone with this key can act as you. Keep it secret.</p>
        <div>
          <button type="button" className="button" onClick={() => setKey('')}>Hide</button>{' '}
          <button type="button" className="button" onClick={() => {
            if (confirm('Generate a new API key? Programs using the current one will stop working.')) void run(regenerateOwnKey(), 'New key made').then((r) => r && setKey(r.api_key));
          }}>Generate a new key</button>
        </div>
        <Status outcome={outcome} />
      </div>
    );
  }
  return (
    <form className="settings-form" onSubmit={(e) => {
      e.preventDefault();
      void run(fetchApiKey(password), 'Key shown').then((k) => k && (setKey(k), setPassword('')));
    }}>
      <label htmlFor="api-key-password">Enter your password to see your API key</label>
      <input id="api-key-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
      <div><button type="submit" className="button" disabled={!password}>Show API key</button></div>
      <Status outcome={outcome} />
    </form>
  );
}

export default function Account() {
  const email = useServer((s) => s.me.deliveryEmail);
  const settings = useServer((s) => s.settings);
  const emailLocked = useServer((s) => !!s.realmSettings.email_changes_disabled && !s.me.isAdmin);
  const [outcome, run] = useRequest();
  const [newEmail, setNewEmail] = useState('');
  const toggle = (name: string, label: string) => <Toggle label={label} checked={!!settings[name]} onChange={(v) => run(setSetting(name, v))} />;
  return (
    <>
      <Status outcome={outcome} />
      <Section title="E-mail address" note={<>Your address: <strong>{email}</strong></>}>
        {emailLocked ? <p className="detail">Your organization does not allow changing e-mail addresses.</p> : (
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(requestEmailChange(newEmail.trim()), `Check ${newEmail.trim()} for a confirmation link`).then((ok) => ok !== undefined && setNewEmail(''));
          }}>
            <label htmlFor="new-email">New e-mail address</label>
            <div className="settings-inline">
              <input id="new-email" type="email" value={newEmail} onChange={(e) => setNewEmail(e.target.value)} required />
              <button type="submit" className="button" disabled={!newEmail.trim()}>Change</button>
            </div>
          </form>
        )}
      </Section>
      <Section title="Password"><PasswordForm /></Section>
      <Section title="API key"><ApiKey /></Section>
      <Section title="Privacy">
        {toggle('presence_enabled', 'Let others see when I’ve been online')}
        {toggle('send_read_receipts', 'Let others see when I’ve read messages')}
        {toggle('send_private_typing_notifications', 'Let recipients see when I’m typing direct messages')}
        {toggle('send_stream_typing_notifications', 'Let recipients see when I’m typing channel messages')}
        <Choice id="email-visibility" label="Who can see my real e-mail address" value={Number(settings.email_address_visibility ?? 1)} options={EMAIL_VISIBILITY}
          onChange={(v) => run(setSetting('email_address_visibility', v))} />
      </Section>
    </>
  );
}
