// Links between messages and the uploaded files their content refers to; a file's links decide who besides its
// uploader may read it (uploads.ts). They follow the content as a message is sent, edited and deleted. A message
// claims a file its sender may read (their own, or one shared with them, which they may share on). Nothing is
// queried unless the content mentions /user_uploads/.
import type { Tx } from '../store/db.js';
import { findAttachments, findAttachmentsByPath, linkAttachments, linkedMessages, messageLinks, unlinkAttachments, type Attachment } from '../store/attachments.js';
import type { Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { formatAttachment, notifyAttachments } from './attachments.js';
import type { Emit } from './transaction.js';
import { mayReadAttachment } from './uploads.js';

const UPLOAD_LINK = /\/user_uploads\/(\d+\/[^\s()<>[\]"'`?#]+)/g;

// Path ids of this organization's uploads named in the content; a bare link may be followed by punctuation.
export function referencedPathIds(realmId: number, content: string): string[] {
  if (!content.includes('/user_uploads/')) return [];
  const out = new Set<string>();
  for (const m of content.matchAll(UPLOAD_LINK)) {
    let path = m[1];
    try {
      path = decodeURIComponent(path);
    } catch {
      // Not percent-encoded after all: keep it as written.
    }
    if (!path.startsWith(`${realmId}/`)) continue;
    out.add(path);
    out.add(path.replace(/[.,;:!]+$/, ''));
  }
  return [...out];
}

async function claimable(tx: Tx, realm: Realm, sender: User, content: string): Promise<Attachment[]> {
  const paths = referencedPathIds(realm.id, content);
  const out: Attachment[] = [];
  for (const a of await findAttachmentsByPath(tx, realm.id, paths)) if (await mayReadAttachment(tx, realm, sender, a)) out.push(a);
  return out;
}

// A new message.
export async function claimAttachments(tx: Tx, emit: Emit, realm: Realm, sender: User, messageId: number, content: string): Promise<void> {
  if (!content.includes('/user_uploads/')) return;
  const claimed = await claimable(tx, realm, sender, content);
  await linkAttachments(tx, messageId, claimed.map((a) => a.id));
  await notifyAttachments(tx, emit, realm.id, 'update', claimed);
}

// An edited message's content. Returns the editor's files that the edit detached and that no message links to
// any more (the edit response's `detached_uploads`, so that a client can offer to delete them).
export async function syncAttachmentClaims(tx: Tx, emit: Emit, realm: Realm, editor: User, message: Message, content: string): Promise<Record<string, unknown>[]> {
  if (!message.hasAttachment && !content.includes('/user_uploads/')) return [];
  const current = message.hasAttachment ? (await messageLinks(tx, [message.id])).map((l) => l.attachmentId) : [];
  const wanted = await claimable(tx, realm, editor, content);
  const wantedIds = new Set(wanted.map((a) => a.id));
  const removed = await findAttachments(tx, current.filter((id) => !wantedIds.has(id)));
  const added = wanted.filter((a) => !current.includes(a.id));
  await unlinkAttachments(tx, [message.id], removed.map((a) => a.id));
  await linkAttachments(tx, message.id, added.map((a) => a.id));
  await notifyAttachments(tx, emit, realm.id, 'update', [...added, ...removed]);
  const remaining = await linkedMessages(tx, removed.map((a) => a.id));
  return removed.filter((a) => a.ownerId === editor.id && !remaining.get(a.id)!.length).map((a) => formatAttachment(a, []));
}

// Messages about to be deleted: their files stay, readable again only by whoever else may read them.
export async function releaseAttachmentClaims(tx: Tx, emit: Emit, realm: Realm, messages: Message[]): Promise<void> {
  const ids = messages.filter((m) => m.hasAttachment).map((m) => m.id);
  if (!ids.length) return;
  const attachmentIds = [...new Set((await messageLinks(tx, ids)).map((l) => l.attachmentId))];
  if (!attachmentIds.length) return;
  await unlinkAttachments(tx, ids);
  await notifyAttachments(tx, emit, realm.id, 'update', await findAttachments(tx, attachmentIds));
}
