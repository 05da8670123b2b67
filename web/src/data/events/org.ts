// Events about the organization's configuration and the person's own lists: user groups, linkifiers,
// playgrounds, default channels, profile fields, channel folders, bots, alert words, muted users; invitations and
// uploaded files, whose lists the panels fetch again when told they changed.
import type { Bot, Channel, ChannelFolder, Linkifier, Playground, ProfileField, ServerEvent, UserGroup } from '../../api/types';
import type { Draft } from '../draft';

function onUserGroup(d: Draft, e: ServerEvent): void {
  const id = e.group_id as number;
  const g = d.get('groups').get(id);
  const put = (next: UserGroup) => d.mut('groups').set(next.id, next);
  const without = (list: number[], gone: number[]) => list.filter((x) => !gone.includes(x));
  switch (e.op) {
    case 'add':
      put(e.group as UserGroup);
      break;
    case 'remove':
      if (g) d.mut('groups').delete(id);
      break;
    case 'update':
      if (g) put({ ...g, ...(e.data as Partial<UserGroup>) });
      break;
    case 'add_members':
      if (g) put({ ...g, members: [...new Set([...g.members, ...(e.user_ids as number[])])] });
      break;
    case 'remove_members':
      if (g) put({ ...g, members: without(g.members, e.user_ids as number[]) });
      break;
    case 'add_subgroups':
      if (g) put({ ...g, direct_subgroup_ids: [...new Set([...g.direct_subgroup_ids, ...(e.direct_subgroup_ids as number[])])] });
      break;
    case 'remove_subgroups':
      if (g) put({ ...g, direct_subgroup_ids: without(g.direct_subgroup_ids, e.direct_subgroup_ids as number[]) });
      break;
  }
}

function onChannelFolder(d: Draft, e: ServerEvent): void {
  if (e.op === 'add') {
    const f = e.channel_folder as ChannelFolder;
    d.mut('channelFolders').set(f.id, f);
  } else if (e.op === 'update') {
    const f = d.get('channelFolders').get(e.channel_folder_id as number);
    if (f) d.mut('channelFolders').set(f.id, { ...f, ...(e.data as Partial<ChannelFolder>) });
  } else if (e.op === 'reorder') {
    (e.order as number[]).forEach((id, order) => {
      const f = d.get('channelFolders').get(id);
      if (f) d.mut('channelFolders').set(id, { ...f, order });
    });
  }
}

function onRealmBot(d: Draft, e: ServerEvent): void {
  const bot = e.bot as Partial<Bot> & { user_id: number };
  const old = d.get('bots').get(bot.user_id);
  if (e.op === 'add') d.mut('bots').set(bot.user_id, bot as Bot);
  else if (e.op === 'update' && old) d.mut('bots').set(bot.user_id, { ...old, ...bot });
  else if (e.op === 'remove' && old) d.mut('bots').set(bot.user_id, { ...old, is_active: false });
  else if (e.op === 'delete' && old) d.mut('bots').delete(bot.user_id);
}

export const orgEvents: Record<string, (d: Draft, e: ServerEvent) => void> = {
  user_group: onUserGroup,
  realm_linkifiers: (d, e) => d.set('linkifiers', e.realm_linkifiers as Linkifier[]),
  realm_playgrounds: (d, e) => d.set('playgrounds', e.realm_playgrounds as Playground[]),
  default_streams: (d, e) => d.set('defaultChannels', (e.default_streams as Channel[]).map((c) => c.stream_id)),
  custom_profile_fields: (d, e) => d.set('profileFields', e.fields as ProfileField[]),
  channel_folder: onChannelFolder,
  realm_bot: onRealmBot,
  alert_words: (d, e) => d.set('alertWords', e.alert_words as string[]),
  muted_users: (d, e) => d.set('mutedUsers', new Map((e.muted_users as { id: number; timestamp: number }[]).map((m) => [m.id, m.timestamp]))),
  invites_changed: (d) => d.set('invitesVersion', d.get('invitesVersion') + 1),
  attachment: (d) => d.set('attachmentsVersion', d.get('attachmentsVersion') + 1),
};
