// Joining an organization through a reusable invitation link (/join/<key>/): the account gets the link's role,
// channels and groups — as far as the link's creator may still give them — and a welcome from the Welcome Bot,
// all in one transaction with the events the same changes make elsewhere.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { realmSettings } from '../state/realm.js';
import type { Db, Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import { closeEmailInvitesFor, EMAIL_INVITE_STATUS, findEmailInviteByKey, setEmailInviteStatus, type EmailInvite } from '../store/email-invites.js';
import { findInviteByKey, MAX_KEY_LENGTH, type MultiuseInvite } from '../store/invites.js';
import type { Realm } from '../store/realms.js';
import { findStream, listDefaultStreamIds, type Stream } from '../store/streams.js';
import { findUserGroup } from '../store/user-groups.js';
import { findUser, type Role, type User } from '../store/users.js';
import { sendMessageInTx } from './messages-send.js';
import { addSubscriptionsInTx } from './subscription-add.js';
import { notificationBot, welcomeBot } from './system-bots.js';
import { inTransaction, type Emit } from './transaction.js';
import { addGroupMembersInTx, mayAddAnyoneTo } from './user-group-members.js';
import { channelsStillOffered, creatorsStillInvite, emitInvitesChanged } from './invites.js';
import { insertUserInTx, prepareUser, realmFakeEmailDomain } from './users.js';
import { hostOf } from '../lib/urls.js';

export type LinkProblem = 'missing' | 'expired' | 'revoked' | 'deactivated' | 'used';

const PROBLEMS: Record<LinkProblem, { status: number; message: string }> = {
  missing: { status: 404, message: 'This invitation link does not exist. Check that you copied all of it, or ask for a new invitation.' },
  expired: { status: 410, message: 'This invitation link has expired. Ask the person who invited you for a new one.' },
  revoked: { status: 410, message: 'This invitation link has been revoked. Ask the person who invited you for a new one.' },
  deactivated: { status: 403, message: 'This organization has been deactivated, so nobody can join it.' },
  used: { status: 410, message: 'This invitation has already been used to create an account. Log in instead.' },
};

// A link that cannot be used, as opposed to a form that was filled in wrongly.
export class InvitationLinkError extends ApiError {
  constructor(readonly problem: LinkProblem) {
    super(PROBLEMS[problem].message, 'BAD_REQUEST', PROBLEMS[problem].status);
  }
}

// A reusable link, or an e-mail invitation's link: that one is for its address only, and once.
type SignupInvite = MultiuseInvite & { byEmail?: EmailInvite };

function fromEmailInvite(e: EmailInvite): SignupInvite {
  return {
    id: e.id, realmId: e.realmId, key: e.key, referredBy: e.invitedBy, invitedAs: e.invitedAs, created: e.invitedAt, expiry: e.expiry,
    revoked: e.status === EMAIL_INVITE_STATUS.revoked, includeRealmDefaultSubscriptions: e.includeRealmDefaultSubscriptions,
    streamIds: e.streamIds, groupIds: e.groupIds, welcomeMessageCustomText: e.welcomeMessageCustomText, byEmail: e,
  };
}

async function findLink(db: Db, key: string): Promise<SignupInvite | undefined> {
  if (key.length > MAX_KEY_LENGTH) return undefined;
  const link = await findInviteByKey(db, key);
  if (link) return link;
  const byEmail = await findEmailInviteByKey(db, key);
  return byEmail && fromEmailInvite(byEmail);
}

// A link works only on its own organization's address, as long as the organization is active.
async function accessLink(db: Db, realm: Realm, key: string): Promise<SignupInvite> {
  const invite = await findLink(db, key);
  if (!invite || invite.realmId !== realm.id) throw new InvitationLinkError('missing');
  if (realm.deactivated) throw new InvitationLinkError('deactivated');
  if (invite.revoked) throw new InvitationLinkError('revoked');
  if (invite.byEmail?.status === EMAIL_INVITE_STATUS.accepted) throw new InvitationLinkError('used');
  if (invite.expiry !== null && invite.expiry <= nowSeconds()) throw new InvitationLinkError('expired');
  // A link carries its creator's right to invite: it ends with it, as an expired link.
  if (!(await creatorsStillInvite(db, realm, [invite]))(invite)) throw new InvitationLinkError('expired');
  return invite;
}

// What the sign-up form shows: the role, and the invited address that an e-mail invitation fixes.
export async function accessInvitationLink(app: App, realm: Realm, key: string): Promise<{ invitedAs: Role; email?: string }> {
  const invite = await accessLink(app.db, realm, key);
  return { invitedAs: invite.invitedAs as Role, email: invite.byEmail?.email };
}

export interface JoinInput {
  fullName: string;
  email: string;
  password: string;
}

// The link's channels that its creator may still offer (and the organization's default channels when it says
// so), those that still take subscribers.
async function channelsOf(tx: Tx, realm: Realm, invite: MultiuseInvite, creator: User): Promise<Stream[]> {
  const defaults = invite.includeRealmDefaultSubscriptions ? await listDefaultStreamIds(tx, realm.id) : [];
  const found = async (ids: number[]) => {
    const out: Stream[] = [];
    for (const id of ids) {
      const s = await findStream(tx, realm.id, id);
      if (s && !s.isArchived) out.push(s);
    }
    return out;
  };
  const offered = await channelsStillOffered(tx, realm, creator, await found(invite.streamIds));
  const ids = new Set(offered.map((s) => s.id));
  return [...offered, ...(await found(defaults.filter((id) => !ids.has(id))))];
}

// The link's groups that its creator may still add anyone to.
async function addToGroups(tx: Tx, emit: Emit, realm: Realm, invite: MultiuseInvite, creator: User, user: User): Promise<void> {
  for (const id of invite.groupIds) {
    const g = await findUserGroup(tx, realm.id, id);
    if (g && (await mayAddAnyoneTo(tx, realm, creator, g))) await addGroupMembersInTx(tx, emit, realm, g, [user.id]);
  }
}

// The link's custom text, or the organization's when the link leaves it open; empty means none.
async function sendWelcome(tx: Tx, emit: Emit, realm: Realm, invite: MultiuseInvite, user: User, host: string): Promise<void> {
  const bot = await welcomeBot(tx, emit, realm, host);
  const send = (content: string) => sendMessageInTx(tx, emit, realm, bot, { type: 'private', to: [user.id], content, system: true, client: 'Internal' });
  await send(
    `Hello, and welcome to ${realm.name}! :wave:\n\n` +
      'Your channels are in the left sidebar. To start a conversation, pick a channel and give your message a topic.',
  );
  const custom = invite.welcomeMessageCustomText ?? String(realmSettings(realm).welcome_message_custom_text ?? '');
  if (custom.trim()) await send(custom);
}

// The inviter hears from the Notification Bot that the person they invited by e-mail has joined, if they asked to.
async function tellInviter(tx: Tx, emit: Emit, realm: Realm, invite: EmailInvite, user: User, host: string): Promise<void> {
  if (!invite.notifyReferrerOnJoin) return;
  const inviter = await findUser(tx, realm.id, invite.invitedBy);
  if (!inviter?.isActive) return;
  const bot = await notificationBot(tx, emit, realm, host);
  const content = `@_**${user.fullName}|${user.id}** accepted your invitation to join ${realm.name}!`;
  await sendMessageInTx(tx, emit, realm, bot, { type: 'private', to: [inviter.id], content, system: true, client: 'Internal' });
}

export async function doJoin(app: App, realm: Realm, key: string, input: JoinInput, realmUrl: string): Promise<User> {
  const { invitedAs, email } = await accessInvitationLink(app, realm, key);
  // An e-mail invitation makes the account of the address it was sent to, whatever the form says.
  const prepared = await prepareUser(app, { email: email ?? input.email, fullName: input.fullName, password: input.password, role: invitedAs });
  return inTransaction(app, async (tx, emit) => {
    // Checked again: the link may have been revoked while the password was hashed.
    const invite = await accessLink(tx, realm, key);
    const creator = (await findUser(tx, realm.id, invite.referredBy))!; // accessLink found them active
    const user = await insertUserInTx(tx, emit, realm, { ...prepared, role: invite.invitedAs as Role }, realmFakeEmailDomain(app, realm));
    await addSubscriptionsInTx(tx, emit, realm, await systemGroupIds(tx, realm.id), [user], await channelsOf(tx, realm, invite, creator));
    await addToGroups(tx, emit, realm, invite, creator, user);
    await sendWelcome(tx, emit, realm, invite, user, hostOf(realmUrl));
    if (invite.byEmail) {
      await setEmailInviteStatus(tx, invite.byEmail.id, EMAIL_INVITE_STATUS.accepted);
      await closeEmailInvitesFor(tx, realm.id, user.email);
      await emitInvitesChanged(tx, emit, realm, invite.byEmail.invitedBy);
      await tellInviter(tx, emit, realm, invite.byEmail, user, hostOf(realmUrl));
    }
    return user;
  });
}
