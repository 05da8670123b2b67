// Channels: create one (as the organization allows); open one to edit its name, description, privacy and
// folder, its subscribers and its permissions, or archive it (administrators, and the channel's own
// administrators by can_administer_channel_group).
import { useEffect, useState } from 'react';
import { useServer, useUi } from '../../data/hooks';
import type { Channel, GroupSettingValue } from '../../api/types';
import { canDo, inGroupSetting } from '../../data/org';
import { addSubscribers, archiveChannel, channelMembers, createChannel, removeSubscribers, updateChannel } from '../actions';
import { Choice, Confirm, GroupPicker, Section, Status, TextSetting, useRequest } from '../controls';
import { PeoplePicker } from './PeoplePicker';

const LABELS: Record<string, string> = {
  can_send_message_group: 'Who can post', can_create_topic_group: 'Who can start new topics', can_subscribe_group: 'Who can subscribe themselves',
  can_add_subscribers_group: 'Who can subscribe others', can_remove_subscribers_group: 'Who can unsubscribe others',
  can_administer_channel_group: 'Who can administer this channel', can_delete_any_message_group: 'Who can delete any message',
  can_delete_own_message_group: 'Who can delete their own messages', can_move_messages_out_of_channel_group: 'Who can move messages out of this channel',
  can_move_messages_within_channel_group: 'Who can move messages within this channel', can_resolve_topics_group: 'Who can resolve topics',
};

function ChannelDetail({ channel }: { channel: Channel & Record<string, unknown> }) {
  const s = useServer((st) => st);
  const [outcome, run] = useRequest();
  const [members, setMembers] = useState<number[] | null>(null);
  const load = () => channelMembers(channel.stream_id).then((r) => setMembers(r.subscribers), () => setMembers([]));
  useEffect(() => void load(), [channel.stream_id, channel.subscriber_count]);
  const admin = s.me.isAdmin || inGroupSetting(s.groups, channel.can_administer_channel_group as GroupSettingValue, s.me.userId);
  const mayAdd = admin || canDo(s, 'can_add_subscribers_group') || inGroupSetting(s.groups, channel.can_add_subscribers_group as GroupSettingValue, s.me.userId);
  const mayRemove = admin || inGroupSetting(s.groups, channel.can_remove_subscribers_group as GroupSettingValue, s.me.userId);
  const userName = (id: number) => s.users.get(id)?.full_name ?? `User ${id}`;
  const folders = [...s.channelFolders.values()].filter((f) => !f.is_archived);
  const webPublic = canDo(s, 'can_create_web_public_channel_group');
  const privacy = channel.is_web_public ? 'web' : channel.invite_only ? 'private' : 'public';
  return (
    <>
      <p><a href="#organization/channels">← All channels</a></p>
      <Status outcome={outcome} />
      <Section title={`#${channel.name}`}>
        <TextSetting id="channel-name" label="Name" value={channel.name} disabled={!admin} maxLength={60} onSave={(v) => void run(updateChannel(channel.stream_id, { new_name: v }))} />
        <TextSetting id="channel-description" label="Description" value={channel.description} disabled={!admin} maxLength={1024} onSave={(v) => void run(updateChannel(channel.stream_id, { description: v }))} />
        <Choice id="channel-privacy" label="Who can see it" value={privacy} disabled={!admin} options={[['public', 'Public: members can join'], ['private', 'Private: by invitation'], ...(webPublic || channel.is_web_public ? [['web', 'Web-public: anyone on the internet'] as ['web', string]] : [])]}
          onChange={(v) => run(updateChannel(channel.stream_id, v === 'web' ? { is_private: false, is_web_public: true } : { is_private: v === 'private', is_web_public: false }))} />
        <Choice id="channel-folder" label="Folder" value={String(channel.folder_id ?? '')} disabled={!admin} options={[['', 'None'], ...folders.map((f): [string, string] => [String(f.id), f.name])]}
          onChange={(v) => run(updateChannel(channel.stream_id, { folder_id: v === '' ? null : Number(v) }))} />
      </Section>
      <Section title={`Subscribers${members ? ` (${members.length})` : ''}`}>
        <PeoplePicker label="Subscribe someone" exclude={members ?? []} disabled={!mayAdd || channel.is_archived} onPick={(id) => void run(addSubscribers(channel.name, [id]), 'Subscribed').then(load)} />
        <ul className="settings-list members">
          {(members ?? []).map((id) => (
            <li key={id}><span>{userName(id)}</span>{mayRemove && <button type="button" className="button" onClick={() => void run(removeSubscribers(channel.name, [id]), 'Unsubscribed').then(load)}>Remove</button>}</li>
          ))}
        </ul>
      </Section>
      <Section title="Permissions">
        {Object.keys(s.permissionSettings.stream).filter((k) => k in channel).map((k) => (
          <GroupPicker key={k} id={`channel-${k}`} label={LABELS[k] ?? k.replace(/_/g, ' ')} value={channel[k] as GroupSettingValue} groups={s.groups}
            info={s.permissionSettings.stream[k]} disabled={!admin} userName={userName} onChange={(v) => run(updateChannel(channel.stream_id, { [k]: { new: v, old: channel[k] } }))} />
        ))}
      </Section>
      {admin && (channel.is_archived
        ? <button type="button" className="button" onClick={() => void run(updateChannel(channel.stream_id, { is_archived: false }), 'Unarchived')}>Unarchive channel</button>
        : <Confirm label="Archive this channel?" onConfirm={() => void run(archiveChannel(channel.stream_id), 'Archived')}>Archive channel</Confirm>)}
    </>
  );
}

export default function Channels() {
  const channels = useServer((s) => s.channels);
  const subs = useServer((s) => s.subs);
  const me = useServer((s) => s.me.userId);
  const mayPublic = useServer((s) => canDo(s, 'can_create_public_channel_group'));
  const mayPrivate = useServer((s) => canDo(s, 'can_create_private_channel_group'));
  const detail = useUi((u) => u.settings?.detail);
  const [outcome, run] = useRequest();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [priv, setPriv] = useState(!mayPublic);
  const [showArchived, setShowArchived] = useState(false);
  const open = detail ? channels.get(Number(detail)) : undefined;
  if (open) return <ChannelDetail channel={open as Channel & Record<string, unknown>} />;
  const list = [...channels.values()].filter((c) => showArchived || !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <>
      <Status outcome={outcome} />
      {(mayPublic || mayPrivate) && (
        <Section title="Create a channel">
          <form className="settings-form" onSubmit={(e) => {
            e.preventDefault();
            void run(createChannel(name.trim(), description.trim(), priv, [me], null), 'Channel created').then((ok) => ok !== undefined && (setName(''), setDescription('')));
          }}>
            <label htmlFor="create-channel-name">Name</label>
            <input id="create-channel-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} required />
            <label htmlFor="create-channel-description">Description</label>
            <input id="create-channel-description" value={description} maxLength={1024} onChange={(e) => setDescription(e.target.value)} />
            {mayPublic && mayPrivate && <label className="settings-toggle"><input type="checkbox" checked={priv} onChange={(e) => setPriv(e.target.checked)} /> Private</label>}
            <div><button type="submit" className="button primary" disabled={!name.trim()}>Create channel</button></div>
          </form>
        </Section>
      )}
      <label className="settings-toggle"><input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived channels</label>
      <ul className="settings-list channels">
        {list.map((c) => (
          <li key={c.stream_id} className={c.is_archived ? 'inactive' : ''}>
            <a href={`#organization/channels/${c.stream_id}`}>{c.invite_only ? '🔒' : '#'}{c.name}</a>
            <span className="detail">{c.is_archived ? 'archived · ' : ''}{subs.has(c.stream_id) ? 'subscribed · ' : ''}{c.subscriber_count ?? '?'} subscribers</span>
          </li>
        ))}
      </ul>
    </>
  );
}
