// PATCH /invites/multiuse/{invite_id}: changing what a live invitation link offers (the role, channels, groups,
// default channels, the welcome text), by whoever may revoke it, under the rules that apply to making one.
import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { systemGroupIds } from '../store/groups.js';
import { updateInvite } from '../store/invites.js';
import type { Realm } from '../store/realms.js';
import { ROLES, type User } from '../store/users.js';
import { viewerOf } from './channels.js';
import { accessInviteForRevoking, checkChannels, checkGroups, emitInvitesChanged, inviteRefusal } from './invites.js';
import { inTransaction } from './transaction.js';
import { checkMemberOrAdmin } from './checks.js';

export interface EditInviteInput {
  invitedAs?: number;
  streamIds?: number[];
  groupIds?: number[];
  includeRealmDefaultSubscriptions?: boolean;
  welcomeMessageCustomText?: string;
}

export async function doEditMultiuseInvite(app: App, realm: Realm, user: User, id: number, input: EditInviteInput): Promise<void> {
  checkMemberOrAdmin(user);
  if (Object.values(input).every((v) => v === undefined)) throw new ApiError('Nothing to change');
  if (input.invitedAs !== undefined && !ROLES.includes(input.invitedAs)) throw new ApiError('Invalid invite_as');
  await inTransaction(app, async (tx, emit) => {
    const invite = await accessInviteForRevoking(tx, realm, user, id);
    if (invite.expiry !== null && invite.expiry <= nowSeconds()) throw new ApiError('The invitation has expired.');
    const viewer = await viewerOf(tx, user);
    const systemGroups = await systemGroupIds(tx, realm.id);
    if (input.invitedAs !== undefined) {
      const refusal = inviteRefusal(viewer, realm, systemGroups, input.invitedAs);
      if (refusal) throw refusal;
    }
    await updateInvite(tx, invite.id, {
      invitedAs: input.invitedAs,
      streamIds: input.streamIds && (await checkChannels(tx, realm, viewer, input.streamIds, systemGroups)),
      groupIds: input.groupIds && (await checkGroups(tx, realm, user, input.groupIds)),
      includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions,
      // As when making a link: only administrators choose the welcome text.
      welcomeMessageCustomText: isRealmAdmin(user) ? input.welcomeMessageCustomText : undefined,
    });
    await emitInvitesChanged(tx, emit, realm, invite.referredBy);
  });
}
