// Reusable invitation links (§4.17): creating one with every rule of the reference server, listing and
// revoking them, and the invites_changed events that tell administrators and a link's creator to fetch the
// list again. Joining through a link is in signup.ts.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { randomToken } from '../lib/secrets.js';
import { canAddSubscribers, isRealmAdmin, type Viewer } from '../permissions/channels.js';
import type { Db, Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { expireInvites, findInvite, insertInvite, listLiveInvites, revokeInvite, type MultiuseInvite } from '../store/invites.js';
import type { Realm } from '../store/realms.js';
import { listDefaultStreamIds, type Stream } from '../store/streams.js';
import { findSubscription, type Subscription } from '../store/subscriptions.js';
import { findUser, isStoredId, listUsers, ROLE, ROLES, type User } from '../store/users.js';
import { checkMemberOrAdmin } from './checks.js';
import { accessChannelById, holdsRealmSetting, realmGroupValue, viewerOf } from './channels.js';
import { accessGroupsForAdding } from './user-group-members.js';
import { inTransaction, type Emit } from './transaction.js';
import { OrganizationAdministratorRequired, OrganizationOwnerRequired } from './users.js';

export const MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH = 8000;
// Far enough for any real use; keeps expiry timestamps well inside every date type.
const MAX_VALIDITY_MINUTES = 100 * 365 * 24 * 60;

export interface CreateInviteInput {
  // undefined: the server's default validity; null: never expires.
  expiresInMinutes: number | null | undefined;
  invitedAs: number;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
}

export const inviteLink = (realmUrl: string, key: string) => `${realmUrl}/join/${key}/`;


export function expiryOf(app: App, minutes: number | null | undefined, now: number): number | null {
  if (minutes === undefined) {
    const fallback = app.config.invitationLinkValidityMinutes;
    return fallback === 0 ? null : now + fallback * 60;
  }
  if (minutes === null) return null;
  if (minutes <= 0 || minutes > MAX_VALIDITY_MINUTES) throw new ApiError('Invalid invite_expires_in_minutes');
  return now + minutes * 60;
}

// A default channel may always be offered, any other only when the link's creator may add subscribers to it:
// checked when the link is made and again when someone joins through it.
async function channelOffer(db: Db, realm: Realm, systemGroups: Map<string, number>) {
  const defaults = new Set(await listDefaultStreamIds(db, realm.id));
  const realmAddGroup = realmGroupValue(realm, 'can_add_subscribers_group', systemGroups);
  return (viewer: Viewer, stream: Stream, sub: Subscription | undefined) => defaults.has(stream.id) || canAddSubscribers(viewer, stream, realmAddGroup, sub);
}

// Each channel must be one the caller can see and may offer.
export async function checkChannels(tx: Tx, realm: Realm, viewer: Viewer, ids: number[], systemGroups: Map<string, number>): Promise<number[]> {
  const mayOffer = await channelOffer(tx, realm, systemGroups);
  let mayAddAll = true;
  for (const id of ids) {
    const invalid = () => new ApiError(`Invalid channel ID ${id}. No invites were sent.`);
    if (!isStoredId(id)) throw invalid();
    const { stream, sub } = await accessChannelById(tx, realm, viewer, id).catch((err: unknown) => {
      throw err instanceof ApiError ? invalid() : err;
    });
    if (stream.isArchived) throw invalid();
    if (!mayOffer(viewer, stream, sub)) mayAddAll = false;
  }
  if (!mayAddAll) throw new ApiError('You do not have permission to subscribe other users to channels.');
  return [...new Set(ids)];
}

// The channels of the link that its creator may still offer (a channel they no longer may is left out).
export async function channelsStillOffered(tx: Tx, realm: Realm, creator: User, streams: Stream[]): Promise<Stream[]> {
  const viewer = await viewerOf(tx, creator);
  const mayOffer = await channelOffer(tx, realm, await systemGroupIds(tx, realm.id));
  const out: Stream[] = [];
  for (const s of streams) if (mayOffer(viewer, s, await findSubscription(tx, creator.id, s.id))) out.push(s);
  return out;
}

// The one rule of a link's life: its creator may make it — an active member or administrator holding
// create_multiuse_invite_group, whose role may invite as the link's role (owners alone invite owners).
export function inviteRefusal(viewer: Viewer, realm: Realm, systemGroups: Map<string, number>, invitedAs: number): ApiError | null {
  const { user } = viewer;
  if (!user.isActive || user.isBot || user.role === ROLE.guest) return new ApiError('Insufficient permission');
  if (!holdsRealmSetting(viewer, realm, 'create_multiuse_invite_group', systemGroups)) return new ApiError('Insufficient permission');
  if (invitedAs === ROLE.owner && user.role !== ROLE.owner) return new OrganizationOwnerRequired();
  if (invitedAs < user.role) return new OrganizationAdministratorRequired();
  return null;
}

// Whether each creator may still make their links: a link whose creator left, or lost the right, is dead.
export async function creatorsStillInvite(db: Db, realm: Realm, invites: MultiuseInvite[]): Promise<(invite: MultiuseInvite) => boolean> {
  const systemGroups = await systemGroupIds(db, realm.id);
  const viewers = new Map<number, Viewer | null>();
  for (const id of new Set(invites.map((i) => i.referredBy))) {
    const creator = await findUser(db, realm.id, id);
    viewers.set(id, creator ? await viewerOf(db, creator) : null);
  }
  return (invite) => {
    const viewer = viewers.get(invite.referredBy);
    return Boolean(viewer) && inviteRefusal(viewer!, realm, systemGroups, invite.invitedAs) === null;
  };
}

// Ends the live links of a user who may no longer make them (deactivated, or of a lower role), as the reference
// server ends a deactivated user's, and tells those who list links.
export async function expireLinksOfInTx(tx: Tx, emit: Emit, realm: Realm, user: User): Promise<void> {
  if (user.isBot) return;
  const now = nowSeconds();
  const live = await listLiveInvites(tx, realm.id, now, user.id);
  const stillInvites = await creatorsStillInvite(tx, realm, live);
  const dead = live.filter((i) => !stillInvites(i));
  if (!dead.length) return;
  await expireInvites(tx, dead.map((i) => i.id), now);
  await emitInvitesChanged(tx, emit, realm, user.id);
}

export async function checkGroups(tx: Tx, realm: Realm, user: User, ids: number[]): Promise<number[]> {
  const bad = ids.find((id) => !isStoredId(id));
  if (bad !== undefined) throw new ApiError('Invalid user group');
  return (await accessGroupsForAdding(tx, realm, user, [...new Set(ids)])).map((g) => g.id);
}

// Administrators (bots among them) hear of every change, and the link's creator of changes to theirs.
export async function emitInvitesChanged(tx: Tx, emit: Emit, realm: Realm, creatorId: number): Promise<void> {
  const admins = (await listUsers(tx, realm.id)).filter((u) => u.isActive && isRealmAdmin(u)).map((u) => u.id);
  emit(realm.id, { type: 'invites_changed' }, [...new Set([...admins, creatorId])]);
}

export async function doCreateMultiuseInvite(app: App, realm: Realm, user: User, input: CreateInviteInput, realmUrl: string): Promise<string> {
  checkMemberOrAdmin(user);
  if (!ROLES.includes(input.invitedAs)) throw new ApiError('Invalid invite_as');
  const now = nowSeconds();
  const expiry = expiryOf(app, input.expiresInMinutes, now);
  return inTransaction(app, async (tx, emit) => {
    const viewer = await viewerOf(tx, user);
    const systemGroups = await systemGroupIds(tx, realm.id);
    const refusal = inviteRefusal(viewer, realm, systemGroups, input.invitedAs);
    if (refusal) throw refusal;
    const streamIds = await checkChannels(tx, realm, viewer, input.streamIds, systemGroups);
    const groupIds = await checkGroups(tx, realm, user, input.groupIds);
    const invite = await insertInvite(tx, {
      realmId: realm.id,
      key: randomToken(24),
      referredBy: user.id,
      invitedAs: input.invitedAs,
      created: now,
      expiry,
      includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
      streamIds,
      groupIds,
      // Only administrators choose the welcome text; anyone else's link uses the organization's.
      welcomeMessageCustomText: isRealmAdmin(user) ? input.welcomeMessageCustomText : null,
    });
    await emitInvitesChanged(tx, emit, realm, user.id);
    return inviteLink(realmUrl, invite.key);
  });
}

function formatInvite(invite: MultiuseInvite, realmUrl: string): Record<string, unknown> {
  return {
    id: invite.id,
    invited_by_user_id: invite.referredBy,
    invited: invite.created,
    expiry_date: invite.expiry,
    invited_as: invite.invitedAs,
    is_multiuse: true,
    link_url: inviteLink(realmUrl, invite.key),
  };
}

// GET /invites: the live links the caller may manage, every one for administrators, their own for others (the
// route adds the e-mail invitations, src/actions/email-invites.ts).
export async function accessInvites(app: App, realm: Realm, user: User, realmUrl: string): Promise<Record<string, unknown>[]> {
  checkMemberOrAdmin(user);
  const invites = await listLiveInvites(app.db, realm.id, nowSeconds(), isRealmAdmin(user) ? undefined : user.id);
  const stillInvites = await creatorsStillInvite(app.db, realm, invites);
  return invites.filter(stillInvites).map((i) => formatInvite(i, realmUrl));
}

export async function accessInviteForRevoking(db: Db, realm: Realm, user: User, id: number): Promise<MultiuseInvite> {
  const invite = await findInvite(db, realm.id, id);
  if (!invite) throw new ApiError('No such invitation');
  if (invite.referredBy !== user.id) {
    if (invite.invitedAs === ROLE.owner && user.role !== ROLE.owner) throw new OrganizationOwnerRequired();
    if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequired();
  }
  if (invite.revoked) throw new ApiError('Invitation has already been revoked');
  return invite;
}

export async function doRevokeMultiuseInvite(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkMemberOrAdmin(user);
  await inTransaction(app, async (tx, emit) => {
    const invite = await accessInviteForRevoking(tx, realm, user, id);
    await revokeInvite(tx, invite.id);
    await emitInvitesChanged(tx, emit, realm, invite.referredBy);
  });
}
