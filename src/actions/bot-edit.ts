// Changes to a bot by its owner or an administrator (PATCH /bots/{bot_id}), its API key, and deactivation
// (DELETE /bots/{bot_id}). Bot administrators get realm_bot updates; everyone gets realm_user updates of what
// user objects show (name, owner, activity).
import type { App } from '../app.js';
import { BOT_TYPE, botServices } from '../format/bots.js';
import { avatarUrl } from '../format/users.js';
import { ApiError } from '../lib/errors.js';
import { isRealmAdmin } from '../permissions/channels.js';
import { randomToken } from '../lib/secrets.js';
import { subscriptionsOfUser } from '../store/subscriptions.js';
import { findStream } from '../store/streams.js';
import { botSettings, NO_BOT_SETTINGS, saveBotSettings } from '../store/bots.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findUser, updateUser, type Role, type User } from '../store/users.js';
import { accessBot, accessBotSecrets, botRecord, channelForBot, checkBotNameAvailable, INTERFACE_TYPES } from './bots.js';
import { streamNamer } from '../state/bots.js';
import { botAudience, emitWithSecrets, ids, replaceBotKey } from './bot-events.js';
import { removeSubscribersInTx } from './subscription-changes.js';
import { checkFullName } from './checks.js';
import { isUrl } from './profile-fields.js';
import { inTransaction, type Emit } from './transaction.js';
import { emitPersonUpdate } from './user-events.js';
import { discardStagedUploadsOf } from './staged-uploads.js';
import { changeRoleInTx, checkRole, setActiveInTx } from './user-roles.js';

export interface BotChanges {
  fullName?: string;
  role?: number;
  botOwnerId?: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
  servicePayloadUrl?: string;
  serviceInterface: number;
  configData?: Record<string, string>;
}

async function changeOwner(tx: Tx, emit: Emit, realm: Realm, bot: User, ownerId: number): Promise<User> {
  const owner = await findUser(tx, realm.id, ownerId);
  if (!owner) throw new ApiError('Failed to change owner, no such user');
  if (!owner.isActive) throw new ApiError('Failed to change owner, user is deactivated');
  if (owner.isBot) throw new ApiError("Failed to change owner, bots can't own other bots");
  if (owner.id === bot.botOwnerId) return bot;
  const previous = bot.botOwnerId === null ? undefined : await findUser(tx, realm.id, bot.botOwnerId);
  await updateUser(tx, bot.id, { botOwnerId: owner.id });
  const moved = { ...bot, botOwnerId: owner.id };
  // Administrators hold every bot already; an owner who is not one gains or loses it from their list.
  const updated = new Set(ids(await botAudience(tx, realm, moved)));
  if (previous && !isRealmAdmin(previous)) {
    emit(realm.id, { type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [previous.id]);
    updated.delete(previous.id);
  }
  if (!isRealmAdmin(owner)) {
    const record = await botRecord(tx, realm, moved);
    emitWithSecrets(emit, realm, [owner], moved, (secrets) => ({ type: 'realm_bot', op: 'add', bot: record(secrets) }));
    updated.delete(owner.id);
  }
  if (updated.size) emit(realm.id, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, owner_id: owner.id } }, [...updated]);
  await emitPersonUpdate(tx, emit, realm, moved, { bot_owner_id: owner.id });
  await leaveChannelsHiddenFrom(tx, emit, realm, moved, owner);
  return moved;
}

// As on the reference server, a bot given to a new owner leaves the private channels its new owner is not
// subscribed to: whoever holds its key would read them.
async function leaveChannelsHiddenFrom(tx: Tx, emit: Emit, realm: Realm, bot: User, owner: User): Promise<void> {
  const ownerChannels = new Set((await subscriptionsOfUser(tx, owner.id)).map((s) => s.streamId));
  for (const sub of await subscriptionsOfUser(tx, bot.id)) {
    if (ownerChannels.has(sub.streamId)) continue;
    const stream = await findStream(tx, realm.id, sub.streamId);
    if (stream?.inviteOnly) await removeSubscribersInTx(tx, emit, realm, stream, [bot]);
  }
}

export async function doUpdateBot(app: App, realm: Realm, user: User, botId: number, c: BotChanges) {
  if (c.role !== undefined) checkRole(c.role);
  if (c.servicePayloadUrl !== undefined && !isUrl(c.servicePayloadUrl)) throw new ApiError('service_payload_url is not a URL');
  if (c.servicePayloadUrl !== undefined && !INTERFACE_TYPES.includes(c.serviceInterface)) throw new ApiError('Invalid interface type');
  return inTransaction(app, async (tx, emit) => {
    let bot = await accessBot(tx, realm, user, botId);
    let audience = await botAudience(tx, realm, bot);
    const announce = (change: Record<string, unknown>) => emit(realm.id, { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, ...change } }, ids(audience));
    if (c.fullName !== undefined && c.fullName.trim() !== bot.fullName) {
      const fullName = checkFullName(c.fullName);
      await checkBotNameAvailable(tx, realm, fullName, bot.id);
      await updateUser(tx, bot.id, { fullName });
      bot = { ...bot, fullName };
      announce({ full_name: fullName });
      await emitPersonUpdate(tx, emit, realm, bot, { full_name: fullName });
    }
    if (c.role !== undefined) {
      await changeRoleInTx(tx, emit, realm, user, bot, c.role);
      bot = { ...bot, role: c.role as Role };
    }
    if (c.botOwnerId !== undefined) bot = await changeOwner(tx, emit, realm, bot, c.botOwnerId);
    const before = (await botSettings(tx, [bot.id])).get(bot.id) ?? NO_BOT_SETTINGS;
    const s = { ...before };
    if (c.defaultSendingStream !== undefined) s.defaultSendingStreamId = await channelForBot(tx, realm, user, c.defaultSendingStream);
    if (c.defaultEventsRegisterStream !== undefined) s.defaultEventsRegisterStreamId = await channelForBot(tx, realm, user, c.defaultEventsRegisterStream);
    if (c.defaultAllPublicStreams !== undefined) s.defaultAllPublicStreams = c.defaultAllPublicStreams;
    if (c.servicePayloadUrl !== undefined) {
      if (bot.botType !== BOT_TYPE.outgoingWebhook) throw new ApiError('Only outgoing webhook bots have a payload URL');
      Object.assign(s, { serviceBaseUrl: c.servicePayloadUrl, serviceInterface: c.serviceInterface, serviceToken: s.serviceToken ?? randomToken(32) });
    }
    if (c.configData !== undefined) s.configData = { ...s.configData, ...c.configData };
    await saveBotSettings(tx, bot.id, s);
    // Who hears of the rest depends on the new owner and default channels, as on the reference server.
    audience = await botAudience(tx, realm, bot);
    const name = await streamNamer(tx, realm);
    if (s.defaultSendingStreamId !== before.defaultSendingStreamId) announce({ default_sending_stream: name(s.defaultSendingStreamId) });
    if (s.defaultEventsRegisterStreamId !== before.defaultEventsRegisterStreamId) announce({ default_events_register_stream: name(s.defaultEventsRegisterStreamId) });
    if (s.defaultAllPublicStreams !== before.defaultAllPublicStreams) announce({ default_all_public_streams: s.defaultAllPublicStreams });
    if (JSON.stringify(botServices(bot, s, true)) !== JSON.stringify(botServices(bot, before, true))) {
      const changed = bot;
      emitWithSecrets(emit, realm, audience, changed, (secrets) => ({ type: 'realm_bot', op: 'update', bot: { user_id: changed.id, services: botServices(changed, s, secrets) } }));
    }
    const owner = bot.botOwnerId === null ? undefined : await findUser(tx, realm.id, bot.botOwnerId);
    return {
      full_name: bot.fullName,
      avatar_url: avatarUrl(bot, false),
      service_interface: c.serviceInterface,
      service_payload_url: c.servicePayloadUrl ?? null,
      config_data: c.configData ?? null,
      default_sending_stream: name(s.defaultSendingStreamId),
      default_events_register_stream: name(s.defaultEventsRegisterStreamId),
      default_all_public_streams: s.defaultAllPublicStreams,
      ...(owner ? { bot_owner: owner.email } : {}),
    };
  });
}

export async function doRegenerateBotKey(app: App, realm: Realm, user: User, botId: number): Promise<string> {
  return inTransaction(app, async (tx, emit) => replaceBotKey(tx, emit, realm, await accessBotSecrets(tx, realm, user, botId)));
}

export async function doDeactivateBot(app: App, realm: Realm, user: User, botId: number): Promise<void> {
  const deactivated = await inTransaction(app, async (tx, emit) => setActiveInTx(tx, emit, realm, user, await accessBot(tx, realm, user, botId), false));
  await discardStagedUploadsOf(app, deactivated);
}
