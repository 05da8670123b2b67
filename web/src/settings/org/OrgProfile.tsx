// The organization's profile: its name, description and icon (administrators change them; others read them).
import { useServer } from '../../data/hooks';
import { deleteRealmIcon, updateRealm, uploadRealmIcon } from '../actions';
import { Section, Status, TextSetting, Toggle, useRequest } from '../controls';
import { OWNER_ONLY_REALM_SETTINGS } from '../labels';

export default function OrgProfile() {
  const realm = useServer((s) => s.realmSettings);
  const admin = useServer((s) => s.me.isAdmin);
  const owner = useServer((s) => s.me.isOwner);
  const [outcome, run] = useRequest();
  const toggle = (name: string, label: string) => <Toggle label={label} checked={!!realm[name]} disabled={!admin || (!owner && OWNER_ONLY_REALM_SETTINGS.has(name))} onChange={(v) => run(updateRealm({ [name]: v }))} />;
  return (
    <>
      <Status outcome={outcome} />
      <Section title="Profile">
        <TextSetting id="realm-name" label="Organization name" value={String(realm.name ?? '')} maxLength={40} disabled={!admin} onSave={(v) => void run(updateRealm({ name: v }), 'Name saved')} />
        <TextSetting id="realm-description" label="Description" value={String(realm.description ?? '')} multiline maxLength={1000} disabled={!admin} onSave={(v) => void run(updateRealm({ description: v }), 'Description saved')} />
        {typeof realm.icon_url === 'string' && (
          <div className="settings-field">
            <span className="label">Icon</span>
            <div className="icon-controls">
            <img className="realm-icon" src={realm.icon_url} alt="" width={48} height={48} />
            {admin && (
              <>
                <label className="button">
                  Upload an icon
                  <input type="file" accept="image/*" hidden aria-label="Upload an icon" onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) void run(uploadRealmIcon(file), 'Icon saved');
                  }} />
                </label>
                {realm.icon_source === 'U' && <button type="button" className="button" onClick={() => void run(deleteRealmIcon(), 'Icon removed')}>Use the default icon</button>}
              </>
            )}
            </div>
          </div>
        )}
      </Section>
      <Section title="Accounts">
        {toggle('invite_required', 'Invitations are required to join')}
        {toggle('name_changes_disabled', 'Prevent people from changing their names')}
        {toggle('email_changes_disabled', 'Prevent people from changing their e-mail addresses')}
        {toggle('avatar_changes_disabled', 'Prevent people from changing their avatars')}
      </Section>
      <Section title="Messages">
        {toggle('allow_message_editing', 'Allow editing messages')}
        {toggle('enable_read_receipts', 'Read receipts')}
        {toggle('inline_image_preview', 'Show previews of linked images')}
        {toggle('inline_url_embed_preview', 'Show previews of linked websites')}
        {toggle('message_content_allowed_in_email_notifications', 'Allow message content in e-mail notifications')}
      </Section>
    </>
  );
}
