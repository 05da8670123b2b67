// POST /users/me/api_key/regenerate: the caller's own API key replaced, as the reference's regenerate_api_key. A
// bot replacing its own key tells those who may see its secrets, as when its owner replaces it.
import type { App } from '../app.js';
import { randomToken } from '../lib/secrets.js';
import type { Realm } from '../store/realms.js';
import { updateUser, type User } from '../store/users.js';
import { replaceBotKey } from './bot-events.js';
import { inTransaction } from './transaction.js';

export async function doRegenerateOwnKey(app: App, realm: Realm, user: User): Promise<string> {
  return inTransaction(app, async (tx, emit) => {
    if (user.isBot) return replaceBotKey(tx, emit, realm, user);
    const apiKey = randomToken(32);
    await updateUser(tx, user.id, { apiKey });
    return apiKey;
  });
}
