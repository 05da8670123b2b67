// POST /realm/test_welcome_bot_custom_message (feature level 416): the Welcome Bot sends the administrator the
// custom text a new user would receive, so that they can see it as it will look.
import type { App } from '../app.js';
import { hostOf, organizationUrl } from '../lib/urls.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { sendMessageInTx } from './messages-send.js';
import { welcomeBot } from './system-bots.js';
import { inTransaction } from './transaction.js';
import { checkAdministrator } from './users.js';

export async function doTestWelcomeBotMessage(app: App, realm: Realm, user: User, text: string): Promise<{ message_id: number }> {
  checkAdministrator(user);
  return inTransaction(app, async (tx, emit) => {
    const bot = await welcomeBot(tx, emit, realm, hostOf(organizationUrl(app, realm)));
    const { id } = await sendMessageInTx(tx, emit, realm, bot, { type: 'private', to: [user.id], content: text, system: true, client: 'Internal' });
    return { message_id: id };
  });
}
