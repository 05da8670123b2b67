// realm_bot events: who hears of a bot (the reference server's bot_owner_user_ids), how its secrets reach only
// those who may hold them (src/permissions/bots.ts), and the new key of a bot whose secrets fewer may hold.
import { randomToken } from '../lib/secrets.js';
import { administersBot, seesBotSecrets } from '../permissions/bots.js';
import { botSettings, NO_BOT_SETTINGS, saveBotSettings } from '../store/bots.js';
import { botServices } from '../format/bots.js';
import type { Db, Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { listUsers, updateUser, type User } from '../store/users.js';
import type { Emit } from './transaction.js';

// Its owner and the organization's administrators; only its owner when one of its default channels is private
// (the channel's name is in the record), as on the reference server.
export async function botAudience(db: Db, realm: Realm, bot: User): Promise<User[]> {
  const s = (await botSettings(db, [bot.id])).get(bot.id) ?? NO_BOT_SETTINGS;
  let ownerOnly = false;
  for (const id of [s.defaultSendingStreamId, s.defaultEventsRegisterStreamId]) {
    if (id !== null && (await findStream(db, realm.id, id))?.inviteOnly) ownerOnly = true;
  }
  return (await listUsers(db, realm.id)).filter((u) => administersBot(u, bot) && (u.id === bot.botOwnerId || !ownerOnly));
}

export const ids = (users: User[]) => users.map((u) => u.id);

// A realm_bot event made by `make`: with the bot's secrets to those of `audience` who may hold them, without to
// the others (nothing when `make(false)` is null).
export function emitWithSecrets(emit: Emit, realm: Realm, audience: User[], bot: User, make: (secrets: boolean) => Record<string, unknown> | null): void {
  const holders = audience.filter((u) => seesBotSecrets(u, bot));
  const others = audience.filter((u) => !seesBotSecrets(u, bot));
  const full = make(true);
  if (holders.length && full) emit(realm.id, full, ids(holders));
  const blank = others.length ? make(false) : null;
  if (blank) emit(realm.id, blank, ids(others));
}

export async function replaceBotKey(tx: Tx, emit: Emit, realm: Realm, bot: User): Promise<string> {
  const apiKey = randomToken(32);
  await updateUser(tx, bot.id, { apiKey });
  const event = { type: 'realm_bot', op: 'update', bot: { user_id: bot.id, api_key: apiKey } };
  emitWithSecrets(emit, realm, await botAudience(tx, realm, bot), bot, (secrets) => (secrets ? event : null));
  return apiKey;
}

// A bot whose role was raised gets new secrets (its key, and its outgoing-webhook token) when someone who could
// see the old ones may not see the new: they could still act as the bot, now with a role above their own.
export async function replaceSecretsIfHoldersLost(tx: Tx, emit: Emit, realm: Realm, before: User, after: User): Promise<void> {
  if (!after.isBot || after.role >= before.role) return;
  if (!(await listUsers(tx, realm.id)).some((u) => seesBotSecrets(u, before) && !seesBotSecrets(u, after))) return;
  await replaceBotKey(tx, emit, realm, after);
  const s = (await botSettings(tx, [after.id])).get(after.id);
  if (!s?.serviceToken) return;
  const changed = { ...s, serviceToken: randomToken(32) };
  await saveBotSettings(tx, after.id, changed);
  emitWithSecrets(emit, realm, await botAudience(tx, realm, after), after, (secrets) => ({
    type: 'realm_bot', op: 'update', bot: { user_id: after.id, services: botServices(after, changed, secrets) },
  }));
}
