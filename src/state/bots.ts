// The realm_bot register block, and the (empty) lists of embedded bots and incoming-webhook integrations.
import { formatBot } from '../format/bots.js';
import { botSettings, NO_BOT_SETTINGS } from '../store/bots.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import { listStreams } from '../store/streams.js';
import { listUsers, type User } from '../store/users.js';
import { administersBot, seesBotSecrets } from '../permissions/bots.js';

// Embedded bots and incoming-webhook integrations are not offered, so their register lists are empty and no
// integration name is valid.
export const EMBEDDED_BOTS: { name: string; config: Record<string, string> }[] = [];

export const INCOMING_WEBHOOK_INTEGRATIONS: Record<string, unknown>[] = [];

// The realm_bot register blocks: administrators see every bot of the organization, others their own; the
// secrets of those whose role is above the viewer's are blank.
export async function realmBotsState(db: Db, realm: Realm, user: User | null) {
  const bots = user ? (await listUsers(db, realm.id)).filter((u) => u.isBot && u.botOwnerId !== null && administersBot(user, u)) : [];
  const settings = await botSettings(db, bots.map((b) => b.id));
  const name = await streamNamer(db, realm);
  return { realm_bots: bots.map((b) => formatBot(b, settings.get(b.id) ?? NO_BOT_SETTINGS, name, seesBotSecrets(user!, b))) };
}

export async function streamNamer(db: Db, realm: Realm) {
  const names = new Map((await listStreams(db, realm.id)).map((s) => [s.id, s.name]));
  return (id: number | null) => (id === null ? null : (names.get(id) ?? null));
}
