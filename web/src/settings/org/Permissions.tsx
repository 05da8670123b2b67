// Who may do what: every group-based permission of the organization, each given to a group with the group
// picker (administrators change them; the server checks owner-only ones).
import { useServer } from '../../data/hooks';
import type { GroupSettingValue } from '../../api/types';
import { setRealmGroupSetting } from '../actions';
import { GroupPicker, Section, Status, useRequest } from '../controls';
import { OWNER_ONLY_REALM_SETTINGS } from '../labels';

// The reference's wording for each setting; any other the server announces is listed after them by its name.
const LABELS: Record<string, string> = {
  can_invite_users_group: 'Who can send invitations',
  create_multiuse_invite_group: 'Who can create reusable invitation links',
  can_create_public_channel_group: 'Who can create public channels',
  can_create_private_channel_group: 'Who can create private channels',
  can_create_web_public_channel_group: 'Who can create web-public channels',
  can_add_subscribers_group: 'Who can subscribe others to channels',
  can_add_custom_emoji_group: 'Who can add custom emoji',
  can_create_groups: 'Who can create user groups',
  can_manage_all_groups: 'Who can manage all user groups',
  can_create_bots_group: 'Who can create bots',
  can_create_write_only_bots_group: 'Who can create bots that send messages only',
  can_delete_any_message_group: 'Who can delete any message',
  can_delete_own_message_group: 'Who can delete their own messages',
  can_move_messages_between_channels_group: 'Who can move messages between channels',
  can_move_messages_between_topics_group: 'Who can move messages between topics',
  can_resolve_topics_group: 'Who can resolve topics',
  can_set_delete_message_policy_group: 'Who can set delete policies of channels',
  can_set_topics_policy_group: 'Who can set topic policies of channels',
  can_mention_many_users_group: 'Who can notify many people with @all',
  can_access_all_users_group: 'Who can see all other users',
  can_summarize_topics_group: 'Who can summarize topics',
  can_manage_billing_group: 'Who can manage billing',
  direct_message_permission_group: 'Who can authorize a direct message conversation',
  direct_message_initiator_group: 'Who can start a direct message conversation',
};

// The panel's sections, as the reference groups them; settings not named here go under "Other".
const SECTIONS: [string, string[]][] = [
  ['Joining and people', ['can_invite_users_group', 'create_multiuse_invite_group', 'can_access_all_users_group', 'direct_message_permission_group', 'direct_message_initiator_group']],
  ['Channels', ['can_create_public_channel_group', 'can_create_private_channel_group', 'can_create_web_public_channel_group', 'can_add_subscribers_group', 'can_set_delete_message_policy_group', 'can_set_topics_policy_group']],
  ['Messages', ['can_delete_any_message_group', 'can_delete_own_message_group', 'can_move_messages_between_channels_group', 'can_move_messages_between_topics_group', 'can_resolve_topics_group', 'can_mention_many_users_group', 'can_summarize_topics_group']],
  ['Groups, emoji and bots', ['can_create_groups', 'can_manage_all_groups', 'can_add_custom_emoji_group', 'can_create_bots_group', 'can_create_write_only_bots_group', 'can_manage_billing_group']],
];

export default function Permissions() {
  const realm = useServer((s) => s.realmSettings);
  const info = useServer((s) => s.permissionSettings.realm);
  const groups = useServer((s) => s.groups);
  const users = useServer((s) => s.users);
  const admin = useServer((s) => s.me.isAdmin);
  const owner = useServer((s) => s.me.isOwner);
  const [outcome, run] = useRequest();
  const names = Object.keys(info).filter((n) => n in realm);
  const placed = new Set(SECTIONS.flatMap(([, list]) => list));
  const sections: [string, string[]][] = [...SECTIONS.map(([title, list]): [string, string[]] => [title, list.filter((n) => names.includes(n))]), ['Other', names.filter((n) => !placed.has(n)).sort()]];
  return (
    <>
      <p className="detail">{admin ? (owner ? null : 'Some of these only organization owners can change.') : 'Only organization administrators can change these.'}</p>
      <Status outcome={outcome} />
      {sections.filter(([, list]) => list.length).map(([title, list]) => (
        <Section key={title} title={title}>
          {list.map((name) => (
            <GroupPicker key={name} id={`perm-${name}`} label={LABELS[name] ?? name.replace(/_/g, ' ')} value={realm[name] as GroupSettingValue} groups={groups} info={info[name]}
              disabled={!admin || (!owner && OWNER_ONLY_REALM_SETTINGS.has(name))} userName={(id) => users.get(id)?.full_name ?? `User ${id}`}
              onChange={(v) => run(setRealmGroupSetting(name, v, realm[name] as GroupSettingValue))} />
          ))}
        </Section>
      ))}
    </>
  );
}
