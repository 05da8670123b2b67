// Bot storage (GET/PUT/DELETE /bot_storage): each user's string values under string keys, as the reference
// server keeps them for stateful bots (any user may use theirs, as there). No events: nobody else sees it.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength } from '../lib/text.js';
import { lockStorage, removeEntries, saveEntries, storageEntries, storageSize, storedSizes } from '../store/bot-storage.js';
import type { User } from '../store/users.js';
import { inTransaction } from './transaction.js';

// The reference's USER_STATE_SIZE_LIMIT: characters of keys and values together, per user.
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;

const missingKey = () => new ApiError('Key does not exist.');

// Some keys' values (each must be stored), or every entry when `keys` is undefined.
export async function accessBotStorage(app: App, user: User, keys?: string[]): Promise<Record<string, string>> {
  const found = await storageEntries(app.db, user.id, keys);
  if (keys === undefined) return Object.fromEntries([...found].map(([k, e]) => [k, e.value]));
  if (keys.some((k) => !found.has(k))) throw missingKey();
  return Object.fromEntries(keys.map((k) => [k, found.get(k)!.value]));
}

export async function doUpdateBotStorage(app: App, user: User, storage: Record<string, string>): Promise<void> {
  const entries = Object.entries(storage).map(([key, value]) => ({ key, value, size: codePointLength(key) + codePointLength(value) }));
  await inTransaction(app, async (tx) => {
    await lockStorage(tx, app.dialect, user.id);
    const before = await storedSizes(tx, user.id, entries.map((e) => e.key));
    const total = (await storageSize(tx, user.id)) + entries.reduce((sum, e) => sum + e.size - (before.get(e.key) ?? 0), 0);
    if (total > BOT_STORAGE_SIZE_LIMIT) {
      throw new ApiError(`Request exceeds storage limit by ${total - BOT_STORAGE_SIZE_LIMIT} characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`);
    }
    await saveEntries(tx, user.id, entries);
  });
}

// Removes some keys (each must be stored, else nothing is removed), or every entry when `keys` is undefined.
export async function doRemoveBotStorage(app: App, user: User, keys?: string[]): Promise<void> {
  await inTransaction(app, async (tx) => {
    // As the reference counts: a key named twice must be stored twice, which no key is.
    if (keys !== undefined && (await storedSizes(tx, user.id, keys)).size < keys.length) throw missingKey();
    await removeEntries(tx, user.id, keys);
  });
}
