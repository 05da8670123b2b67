// POST /messages/render renders through the same context as sending (renderContext), so that a client's
// preview is exactly what sending stores.
import type { App } from '../app.js';
import { renderMessage } from '../markdown/message.js';
import { groupsOfUser } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { renderContext } from './messages-send.js';

// POST /messages/render: the HTML sending this content would store.
export async function doRenderMessage(app: App, realm: Realm, user: User, content: string, realmUrl: string): Promise<string> {
  const viewer = { user, groups: await groupsOfUser(app.db, user.id) };
  return renderMessage(content, await renderContext(app.db, realm, content, user, viewer, realmUrl)).html;
}
