// Bots: created by users the organization lets (can_create_bots_group for every type, can_create_write_only_bots_group
// for incoming webhooks), administered by their owner and the organization's administrators, who alone receive
// realm_bot events (src/actions/bot-events.ts), its secrets only where src/permissions/bots.ts allows. Everyone
// learns of a bot through realm_user events, as of any user.
import type { App } from '../app.js';
import { BOT_TYPE, formatBot } from '../format/bots.js';
import { avatarUrl } from '../format/users.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess, isRealmAdmin } from '../permissions/channels.js';
import { botSettings, NO_BOT_SETTINGS, saveBotSettings, type BotSettings } from '../store/bots.js';
import type { Db, Tx } from '../store/db.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { findStreamByName } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import { findUser, listUsers, ROLE, type User } from '../store/users.js';
import { realmFakeEmailDomain } from '../format/users.js';
import { SYSTEM_BOTS, textKey } from '../lib/identity.js';
import { checkAddressAvailable, lockIdentities, nameKeyOf } from './identity.js';
import { randomToken } from '../lib/secrets.js';
import { holdsRealmSetting, viewerOf } from './channels.js';
import { checkEmail, checkFullName, checkMemberOrAdmin } from './checks.js';
import { botAudience, emitWithSecrets } from './bot-events.js';
import { administersBot, roleNeededFor, seesBotSecrets } from '../permissions/bots.js';
import { isUrl } from './profile-fields.js';
import { inTransaction } from './transaction.js';
import { insertUserInTx, OrganizationAdministratorRequired, OrganizationOwnerRequired } from './users.js';
import { streamNamer } from '../state/bots.js';

// Outgoing webhook payload formats: the reference server's own (1) and Slack's (2).
export const INTERFACE_TYPES = [1, 2];

async function allowedBotTypes(db: Db, realm: Realm, user: User): Promise<number[]> {
  if (isRealmAdmin(user)) return [BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook];
  const systemGroups = await systemGroupIds(db, realm.id);
  const viewer = await viewerOf(db, user);
  const holds = (name: string) => holdsRealmSetting(viewer, realm, name, systemGroups);
  if (holds('can_create_bots_group')) return [BOT_TYPE.generic, BOT_TYPE.incomingWebhook, BOT_TYPE.outgoingWebhook];
  if (holds('can_create_write_only_bots_group')) return [BOT_TYPE.incomingWebhook];
  return [];
}

// A default channel named by a bot's owner, who must be able to read it; the empty name clears it.
export async function channelForBot(tx: Tx, realm: Realm, user: User, name: string): Promise<number | null> {
  if (name === '') return null;
  const stream = await findStreamByName(tx, realm.id, name);
  const sub = stream && (await findSubscription(tx, user.id, stream.id));
  if (!stream || !hasContentAccess(await viewerOf(tx, user), stream, sub)) throw new ApiError(`Invalid channel name '${name}'`);
  return stream.id;
}

// The bot's record, with or without its secrets.
export async function botRecord(db: Db, realm: Realm, bot: User, settings?: BotSettings): Promise<(secrets: boolean) => Record<string, unknown>> {
  const s = settings ?? (await botSettings(db, [bot.id])).get(bot.id) ?? NO_BOT_SETTINGS;
  const name = await streamNamer(db, realm);
  return (secrets) => formatBot(bot, s, name, secrets);
}

export interface CreateBotInput {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl: string;
  serviceName?: string;
  configData: Record<string, string>;
  interfaceType: number;
  defaultSendingStream?: string;
  defaultEventsRegisterStream?: string;
  defaultAllPublicStreams?: boolean;
}

// `host` is the organization's host name, the domain of bot e-mails (realm_bot_domain).
export async function doCreateBot(app: App, realm: Realm, user: User, input: CreateBotInput, host: string) {
  checkMemberOrAdmin(user);
  const shortName = input.shortName.trim();
  if (!shortName) throw new ApiError('Bad name or username');
  const fullName = checkFullName(input.fullName);
  let email: string;
  try {
    email = checkEmail(`${shortName}-bot@${host}`);
  } catch {
    throw new ApiError('Bad name or username');
  }
  if (input.botType === BOT_TYPE.embedded) throw new ApiError('Embedded bots are not enabled.');
  if (input.payloadUrl && !isUrl(input.payloadUrl)) throw new ApiError('payload_url is not a URL');
  const placeholderDomain = realmFakeEmailDomain(app, realm);
  return inTransaction(app, async (tx, emit) => {
    await lockIdentities(tx, realm);
    await checkAddressAvailable(tx, realm, email, { placeholderDomain, taken: 'Username already in use' });
    await checkBotNameAvailable(tx, realm, fullName);
    const allowed = await allowedBotTypes(tx, realm, user);
    if (!allowed.length) throw new ApiError('Insufficient permission');
    if (!allowed.includes(input.botType)) throw new ApiError('Invalid bot type');
    if (!INTERFACE_TYPES.includes(input.interfaceType)) throw new ApiError('Invalid interface type');
    const settings: BotSettings = {
      ...NO_BOT_SETTINGS,
      defaultSendingStreamId: input.defaultSendingStream === undefined ? null : await channelForBot(tx, realm, user, input.defaultSendingStream),
      defaultEventsRegisterStreamId: input.defaultEventsRegisterStream === undefined ? null : await channelForBot(tx, realm, user, input.defaultEventsRegisterStream),
      defaultAllPublicStreams: input.defaultAllPublicStreams ?? false,
    };
    if (input.botType === BOT_TYPE.incomingWebhook && input.serviceName) throw new ApiError(`Invalid integration '${input.serviceName}'.`);
    // An incoming webhook's configuration (its webhook_secret, src/actions/incoming-webhooks.ts), kept and never shown.
    if (input.botType === BOT_TYPE.incomingWebhook) settings.configData = input.configData;
    if (input.botType === BOT_TYPE.outgoingWebhook) {
      Object.assign(settings, { serviceName: input.serviceName || shortName, serviceBaseUrl: input.payloadUrl, serviceInterface: input.interfaceType, serviceToken: randomToken(32) });
    }
    const bot = await insertUserInTx(tx, emit, realm, {
      email, fullName, password: null, passwordHash: null, role: ROLE.member, isBot: true, botType: input.botType, botOwnerId: user.id,
    }, placeholderDomain);
    await saveBotSettings(tx, bot.id, settings);
    const record = await botRecord(tx, realm, bot, settings);
    emitWithSecrets(emit, realm, await botAudience(tx, realm, bot), bot, (secrets) => ({ type: 'realm_bot', op: 'add', bot: record(secrets) }));
    const created = record(seesBotSecrets(user, bot));
    return {
      user_id: bot.id,
      api_key: created.api_key,
      avatar_url: created.avatar_url,
      default_sending_stream: created.default_sending_stream,
      default_events_register_stream: created.default_events_register_stream,
      default_all_public_streams: created.default_all_public_streams,
    };
  });
}

const SYSTEM_BOT_NAMES = new Set(Object.values(SYSTEM_BOTS).map((b) => textKey(b.fullName)));

// No bot may be named like a system bot, or like another active user: not in another case, nor with look-alike
// or invisible characters.
export async function checkBotNameAvailable(db: Db, realm: Realm, fullName: string, except?: number): Promise<void> {
  const key = textKey(fullName);
  if (SYSTEM_BOT_NAMES.has(key) || (await listUsers(db, realm.id)).some((u) => u.isActive && u.id !== except && nameKeyOf(u) === key)) {
    throw new ApiError('Name is already in use!');
  }
}

// A bot the caller may administer: its owner or an administrator.
export async function accessBot(db: Db, realm: Realm, user: User, botId: number): Promise<User> {
  checkMemberOrAdmin(user);
  const bot = await findUser(db, realm.id, botId);
  if (!bot || !bot.isBot) throw new ApiError('No such bot');
  if (!administersBot(user, bot)) throw new ApiError('Insufficient permission');
  return bot;
}

// A bot whose secrets the caller may hold: one they administer, whose role is not above theirs.
export async function accessBotSecrets(db: Db, realm: Realm, user: User, botId: number): Promise<User> {
  const bot = await accessBot(db, realm, user, botId);
  if (seesBotSecrets(user, bot)) return bot;
  const needed = roleNeededFor(bot);
  if (needed === 'owner') throw new OrganizationOwnerRequired();
  if (needed === 'administrator') throw new OrganizationAdministratorRequired();
  throw new ApiError('Insufficient permission');
}

// GET /bots: the caller's own active bots, oldest first.
export async function accessOwnBots(app: App, realm: Realm, user: User) {
  checkMemberOrAdmin(user);
  const bots = (await listUsers(app.db, realm.id)).filter((u) => u.isBot && u.isActive && u.botOwnerId === user.id).sort((a, b) => a.dateJoined - b.dateJoined || a.id - b.id);
  const settings = await botSettings(app.db, bots.map((b) => b.id));
  const name = await streamNamer(app.db, realm);
  return bots.map((b) => {
    const s = settings.get(b.id) ?? NO_BOT_SETTINGS;
    return {
      username: b.email, full_name: b.fullName, api_key: seesBotSecrets(user, b) ? b.apiKey : '', avatar_url: avatarUrl(b, false),
      default_sending_stream: name(s.defaultSendingStreamId), default_events_register_stream: name(s.defaultEventsRegisterStreamId),
      default_all_public_streams: s.defaultAllPublicStreams,
    };
  });
}
