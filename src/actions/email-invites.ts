// E-mail invitations (POST /invites, resending, revoking): each address gets a mail with the link of its own
// sign-up page (/join/<key>/, as reusable links have), queued with the invitation and sent by the mail worker.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { invitationMail } from '../format/mails.js';
import { addressKey } from '../lib/identity.js';
import { LIMITS, tooMany } from '../lib/limits.js';
import { randomToken } from '../lib/secrets.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { systemGroupIds } from '../store/groups.js';
import {
  EMAIL_INVITE_STATUS, findEmailInvite, insertEmailInvite, listLiveEmailInvites, setEmailInviteStatus, type EmailInvite,
} from '../store/email-invites.js';
import type { Realm } from '../store/realms.js';
import { findUser, findUsersByIdentityKey, ROLE, ROLES, type User } from '../store/users.js';
import { holdsRealmSetting, viewerOf } from './channels.js';
import { checkEmail, checkMemberOrAdmin } from './checks.js';
import { checkChannels, checkGroups, emitInvitesChanged, expiryOf, type CreateInviteInput } from './invites.js';
import { queueTemplateMail } from './mail.js';
import { checkEmailAllowed } from './realm-domains.js';
import { inTransaction } from './transaction.js';
import { OrganizationAdministratorRequired, OrganizationOwnerRequired } from './users.js';

export interface EmailInviteInput extends CreateInviteInput {
  inviteeEmails: string;
  notifyReferrerOnJoin: boolean;
}

class InvitationFailed extends ApiError {
  constructor(msg: string, errors: [string, string, boolean][], sent: boolean) {
    super(msg, 'INVITATION_FAILED', 400, { errors, sent_invitations: sent, license_limit_reached: false, daily_limit_reached: false });
  }
}

const invitation = (realm: Realm, inviter: User, invite: EmailInvite) =>
  invitationMail({ realmName: realm.name, inviterName: inviter.fullName, inviterEmail: inviter.email, key: invite.key, expiry: invite.expiry });

export async function doInviteByEmail(app: App, realm: Realm, user: User, input: EmailInviteInput): Promise<void> {
  checkMemberOrAdmin(user);
  if (!ROLES.includes(input.invitedAs)) throw new ApiError('Invalid invite_as');
  const emails = [...new Set(input.inviteeEmails.split(/[,\n]/).map((e) => e.trim()).filter(Boolean))];
  if (!emails.length) throw new ApiError('You must specify at least one email address.');
  if (emails.length > LIMITS.inviteEmailsPerRequest) throw new ApiError(tooMany('invitee_emails', LIMITS.inviteEmailsPerRequest));
  const now = nowSeconds();
  const expiry = expiryOf(app, input.expiresInMinutes, now);
  const outcome = await inTransaction(app, async (tx, emit) => {
    const viewer = await viewerOf(tx, user);
    const systemGroups = await systemGroupIds(tx, realm.id);
    if (!holdsRealmSetting(viewer, realm, 'can_invite_users_group', systemGroups)) throw new ApiError('Insufficient permission');
    // As restricted as the inviter's own role, or more.
    if (input.invitedAs < user.role) throw new ApiError('Insufficient permission');
    const streamIds = await checkChannels(tx, realm, viewer, input.streamIds, systemGroups);
    const groupIds = await checkGroups(tx, realm, user, input.groupIds);
    const invalid: [string, string, boolean][] = [];
    for (const email of emails) {
      try {
        checkEmail(email);
        await checkEmailAllowed(tx, realm, email);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        invalid.push([email, err.message, false]);
      }
    }
    if (invalid.length) throw new InvitationFailed("Some emails did not validate, so we didn't send any invitations.", invalid, false);
    const taken: [string, string, boolean][] = [];
    const invited: EmailInvite[] = [];
    for (const email of emails) {
      const existing = await findUsersByIdentityKey(tx, realm.id, addressKey(email));
      if (existing.length) {
        taken.push([email, 'Already has an account.', existing.every((u) => !u.isActive)]);
        continue;
      }
      const invite = await insertEmailInvite(tx, {
        realmId: realm.id, email, key: randomToken(24), invitedBy: user.id, invitedAt: now, expiry, invitedAs: input.invitedAs, streamIds, groupIds,
        includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions, notifyReferrerOnJoin: input.notifyReferrerOnJoin,
        welcomeMessageCustomText: isRealmAdmin(user) ? input.welcomeMessageCustomText : null,
      });
      await queueTemplateMail(app, tx, realm, invite.email, invitation(realm, user, invite));
      invited.push(invite);
    }
    if (invited.length) await emitInvitesChanged(tx, emit, realm, user.id);
    return { taken, sent: invited.length > 0 };
  });
  // The addresses that could be invited were (and stay) invited; the error names the others, as the reference's.
  if (outcome.taken.length) {
    const msg = outcome.sent
      ? "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!"
      : "We weren't able to invite anyone.";
    throw new InvitationFailed(msg, outcome.taken, outcome.sent);
  }
}

export function formatEmailInvite(i: EmailInvite): Record<string, unknown> {
  return {
    id: i.id, invited_by_user_id: i.invitedBy, invited: i.invitedAt, expiry_date: i.expiry, email: i.email, invited_as: i.invitedAs,
    is_multiuse: false, notify_referrer_on_join: i.notifyReferrerOnJoin,
  };
}

// For GET /invites: every waiting invitation for administrators, one's own for others.
export async function liveEmailInvites(app: App, realm: Realm, user: User): Promise<Record<string, unknown>[]> {
  return (await listLiveEmailInvites(app.db, realm.id, nowSeconds(), isRealmAdmin(user) ? undefined : user.id)).map(formatEmailInvite);
}

// The inviter, or an administrator (an owner for an invitation as owner), as for links.
async function accessEmailInvite(app: App, realm: Realm, user: User, id: number): Promise<EmailInvite> {
  const invite = await findEmailInvite(app.db, realm.id, id);
  if (!invite || invite.status === EMAIL_INVITE_STATUS.accepted) throw new ApiError('No such invitation');
  if (invite.invitedBy !== user.id) {
    if (invite.invitedAs === ROLE.owner && user.role !== ROLE.owner) throw new OrganizationOwnerRequired();
    if (!isRealmAdmin(user)) throw new OrganizationAdministratorRequired();
  }
  if (invite.status === EMAIL_INVITE_STATUS.revoked) throw new ApiError('Invitation has already been revoked');
  return invite;
}

export async function doRevokeEmailInvite(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkMemberOrAdmin(user);
  const invite = await accessEmailInvite(app, realm, user, id);
  await inTransaction(app, async (tx, emit) => {
    await setEmailInviteStatus(tx, invite.id, EMAIL_INVITE_STATUS.revoked);
    await emitInvitesChanged(tx, emit, realm, invite.invitedBy);
  });
}

export async function doResendEmailInvite(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkMemberOrAdmin(user);
  const invite = await accessEmailInvite(app, realm, user, id);
  if (invite.expiry !== null && invite.expiry <= nowSeconds()) throw new ApiError('The invitation has expired.');
  const inviter = (await findUser(app.db, realm.id, invite.invitedBy)) ?? user;
  await inTransaction(app, (tx) => queueTemplateMail(app, tx, realm, invite.email, invitation(realm, inviter, invite)));
}
