// What rendering a message needs beyond names to look up: the organization's address (its links become
// relative), its Markdown settings, the sender's emoticon setting, and the previews of uploaded images the
// content links. renderContext (messages-send.ts) adds these for sending, editing and POST /messages/render,
// so the preview a client shows is exactly what sending stores.
import type { RenderContext } from '../markdown/message.js';
import { realmSettings } from '../state/realm.js';
import { userSetting } from '../state/user-settings.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { uploadPreviews } from './image-previews.js';

export async function renderSettings(db: Db, realm: Realm, content: string, author: User, realmUrl: string | undefined): Promise<Partial<RenderContext>> {
  const settings = realmSettings(realm);
  return {
    realmUrl,
    translateEmoticons: userSetting(author, 'translate_emoticons'),
    defaultCodeBlockLanguage: settings.default_code_block_language || null,
    imagePreviews: settings.inline_image_preview,
    embedPreviews: settings.inline_url_embed_preview && !author.isBot,
    uploads: await uploadPreviews(db, realm.id, content),
  };
}
