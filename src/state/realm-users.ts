// The `realm_user` block of POST /register: the organization's users and the caller's own identity and rights.
import { userObjects, userObjectTexts } from './user-objects.js';
import { JsonText } from '../lib/json-text.js';
import { avatarUrl } from '../format/users.js';
import { holdsGroupSetting, resolveGroupSetting } from '../permissions/groups.js';
import { groupsOfUser } from '../store/groups.js';
import { listUsers, ROLE } from '../store/users.js';
import { realmSettings } from './realm.js';
import type { StateContext } from './context.js';

export async function realmUserState(ctx: StateContext): Promise<Record<string, unknown>> {
  const { user, realm } = ctx;
  if (!user) return { realm_users: [], realm_non_active_users: [], cross_realm_bots: [] };
  const caps = ctx.options.capabilities;
  const all = await listUsers(ctx.db, realm.id);
  const opts = {
    clientGravatar: ctx.options.clientGravatar,
    includeCustomProfileFields: true,
    userListIncomplete: !!caps.user_list_incomplete,
    avatarOptional: !!caps.user_avatar_url_field_optional,
  };
  // The server's own bots are listed apart, as the reference server lists its cross-realm bots.
  // Spliced in as text (src/lib/json-text.ts): each user's object is kept serialised between registers.
  const people = await userObjectTexts(ctx.app, ctx.db, realm, user, all.filter((u) => !u.systemBot), opts);
  const texts: Record<'active' | 'inactive', string[]> = { active: [], inactive: [] };
  for (const p of people) texts[p.active ? 'active' : 'inactive'].push(p.text);
  const systemBots = await userObjects(ctx.app, ctx.db, realm, user, all.filter((u) => u.systemBot), { ...opts, includeCustomProfileFields: false });
  const settings = realmSettings(realm);
  const groups = await groupsOfUser(ctx.db, user.id);
  const may = (setting: string) => holdsGroupSetting(resolveGroupSetting(settings[setting], ctx.systemGroups), user.id, groups);
  const canPublic = may('can_create_public_channel_group');
  const canPrivate = may('can_create_private_channel_group');
  return {
    realm_users: new JsonText(`[${texts.active.join(',')}]`),
    realm_non_active_users: new JsonText(`[${texts.inactive.join(',')}]`),
    cross_realm_bots: systemBots.map((b) => ({ ...b, is_system_bot: true })),
    avatar_source: user.avatarSource,
    avatar_url: avatarUrl(user, false),
    avatar_url_medium: avatarUrl(user, false, true),
    can_create_private_streams: canPrivate,
    can_create_public_streams: canPublic,
    can_create_web_public_streams: may('can_create_web_public_channel_group') && !!settings.enable_spectator_access,
    can_create_streams: canPublic || canPrivate,
    can_invite_others_to_realm: may('can_invite_users_group'),
    is_admin: user.role <= ROLE.administrator,
    is_owner: user.role === ROLE.owner,
    is_moderator: user.role === ROLE.moderator,
    is_guest: user.role === ROLE.guest,
    user_id: user.id,
    email: user.email,
    delivery_email: user.deliveryEmail,
    full_name: user.fullName,
  };
}
