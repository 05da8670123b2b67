// Invitations: reusable links and e-mail invitations — create, list, revoke (and resend an e-mail). The list
// comes from GET /invites and is fetched again when an invites_changed event says it changed.
import { useEffect, useState } from 'react';
import { useServer } from '../../data/hooks';
import { canDo, ROLE } from '../../data/org';
import { ROLE_NAMES } from '../labels';
import { createInviteLink, inviteByEmail, listInvites, resendInvite, revokeInvite, type Invite } from '../actions';
import { Confirm, Section, Status, useRequest } from '../controls';

const EXPIRY: [string, string][] = [['1440', '1 day'], ['4320', '3 days'], ['10080', '1 week'], ['43200', '30 days'], ['never', 'Never']];

export default function Invitations() {
  const me = useServer((s) => s.me);
  const users = useServer((s) => s.users);
  const version = useServer((s) => s.invitesVersion);
  const mayLink = useServer((s) => canDo(s, 'create_multiuse_invite_group'));
  const mayEmail = useServer((s) => canDo(s, 'can_invite_users_group'));
  const [outcome, run] = useRequest();
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [as, setAs] = useState<number>(ROLE.member);
  const [expiry, setExpiry] = useState('10080');
  const [emails, setEmails] = useState('');
  const [link, setLink] = useState('');
  useEffect(() => {
    listInvites().then((r) => setInvites(r.invites), (err: Error) => void run(Promise.reject(err)));
  }, [version]);
  const minutes = expiry === 'never' ? null : Number(expiry);
  const roles = Object.entries(ROLE_NAMES).map(([k, v]): [number, string] => [Number(k), v]).filter(([k]) => k >= me.role);
  return (
    <>
      <Status outcome={outcome} />
      {(mayLink || mayEmail) && (
        <Section title="Invite people">
          <div className="settings-inline">
            <label htmlFor="invite-as">Join as</label>
            <select id="invite-as" value={as} onChange={(e) => setAs(Number(e.target.value))}>{roles.map(([k, v]) => <option key={k} value={k}>{v}</option>)}</select>
            <label htmlFor="invite-expiry">Expires after</label>
            <select id="invite-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>{EXPIRY.map(([k, v]) => <option key={k} value={k}>{v}</option>)}</select>
          </div>
          {mayLink && (
            <div className="settings-stack">
              <div><button type="button" className="button primary" onClick={() => void run(createInviteLink(as, minutes, []), 'Link created').then((r) => r && setLink(r.invite_link))}>Create invitation link</button></div>
              {link && <p className="invite-link">Share this link: <input readOnly aria-label="Invitation link" value={link} onFocus={(e) => e.target.select()} /></p>}
            </div>
          )}
          {mayEmail && (
            <form className="settings-form" onSubmit={(e) => {
              e.preventDefault();
              void run(inviteByEmail(emails, as, minutes, []), 'Invitations sent').then((ok) => ok !== undefined && setEmails(''));
            }}>
              <label htmlFor="invite-emails">E-mail addresses (separated by commas or lines)</label>
              <textarea id="invite-emails" rows={2} value={emails} onChange={(e) => setEmails(e.target.value)} />
              <div><button type="submit" className="button" disabled={!emails.trim()}>Send invitations</button></div>
            </form>
          )}
        </Section>
      )}
      <Section title="Invitations">
        {invites === null ? <p className="detail">Loading…</p> : (
          <table className="settings-table invites-table">
            <thead><tr><th scope="col">Invitation</th><th scope="col">By</th><th scope="col">Role</th><th scope="col">Expires</th><th /></tr></thead>
            <tbody>
              {invites.map((inv) => (
                <tr key={`${inv.is_multiuse ? 'l' : 'e'}${inv.id}`}>
                  <td>{inv.is_multiuse ? <span title={inv.link_url}>Link</span> : inv.email}</td>
                  <td>{users.get(inv.invited_by_user_id)?.full_name ?? ''}</td>
                  <td>{ROLE_NAMES[inv.invited_as] ?? ''}</td>
                  <td>{inv.expiry_date ? new Date(inv.expiry_date * 1000).toLocaleDateString() : 'Never'}</td>
                  <td className="settings-actions">
                    {!inv.is_multiuse && <button type="button" className="button" onClick={() => void run(resendInvite(inv.id), 'Invitation sent again')}>Resend</button>}
                    <Confirm label="Revoke?" onConfirm={() => void run(revokeInvite(inv), 'Revoked')}>Revoke</Confirm>
                  </td>
                </tr>
              ))}
              {!invites.length && <tr><td colSpan={5} className="detail">No open invitations.</td></tr>}
            </tbody>
          </table>
        )}
      </Section>
    </>
  );
}
