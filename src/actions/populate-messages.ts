// Writes a planned organization's messages (src/populate/messages.ts) through the store's bulk path: each
// rendered by the server's Markdown renderer with the organization's people and channels, flagged as the send
// path flags them (read, starred, mentioned), and the channels' first_message_id noted as a send notes it.
import type { App } from '../app.js';
import type { RenderContext } from '../markdown/message.js';
import { renderMessage } from '../markdown/message.js';
import { plannedMessages } from '../populate/messages.js';
import { HISTORY_DAYS, type Plan } from '../populate/plan.js';
import { insertMessages, preferBulkWrites, type BulkMessage } from '../store/message-bulk.js';
import { dmRecipient, FLAG_BITS, streamRecipient } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { noteFirstMessageId } from '../store/streams.js';
import type { User } from '../store/users.js';
import { renderExtras } from './linkifiers.js';
import { checkContent, checkTopic, linksUpload } from './messages-send.js';
import { inTransaction } from './transaction.js';

const BATCH = 20_000; // messages per transaction
const DAY = 86400;

export async function writeMessages(app: App, realm: Realm, plan: Plan, users: User[], channelIds: number[], progress: (done: number) => void): Promise<number> {
  await preferBulkWrites(app.db);
  const ctx: RenderContext = {
    usersByName: new Map(users.map((u) => [u.fullName.toLowerCase(), [{ id: u.id, fullName: u.fullName }]])),
    usersById: new Map(users.map((u) => [u.id, { id: u.id, fullName: u.fullName }])),
    groupsByName: new Map(),
    channelsByName: new Map(plan.channels.map((c, i) => [c.name.toLowerCase(), { id: channelIds[i], name: c.name }])),
    ...(await renderExtras(app.db, realm.id, ':emoji:')),
  };
  const recipients = await inTransaction(app, async (tx) => {
    const channels: number[] = [];
    const dms: number[] = [];
    for (const id of channelIds) channels.push(await streamRecipient(tx, realm.id, id));
    for (const g of plan.dmGroups) dms.push(await dmRecipient(tx, realm.id, g.map((u) => users[u].id)));
    return { channels, dms };
  });
  const end = Math.floor(Date.now() / 1000) - 60;
  const start = end - HISTORY_DAYS * DAY;
  const firstIds = new Map<number, number>();
  let written = 0;
  let batch: { bulk: BulkMessage; channel: number | null }[] = [];
  const flush = async () => {
    const ids = await inTransaction(app, (tx) => insertMessages(tx, batch.map((b) => b.bulk)));
    batch.forEach((b, i) => {
      if (b.channel !== null && !firstIds.has(b.channel)) firstIds.set(b.channel, ids[i]);
    });
    written += batch.length;
    batch = [];
    progress(written);
  };
  for (const m of plannedMessages(plan, realm.id)) {
    const content = checkContent(m.text);
    const rendered = renderMessage(content, ctx);
    const topic = checkTopic(m.topic);
    const bulk: BulkMessage = {
      message: {
        realmId: realm.id, senderId: users[m.sender].id, recipientId: m.channel === null ? recipients.dms[m.dmGroup] : recipients.channels[m.channel],
        streamId: m.channel === null ? null : channelIds[m.channel], topic, content, renderedContent: rendered.html,
        dateSent: start + Math.round(m.at * (end - start)), client: 'populate', hasLink: rendered.hasLink, hasImage: rendered.hasImage,
        hasAttachment: linksUpload(content), isMeMessage: rendered.isMeMessage,
      },
      recipients: m.rows.map((r) => {
        const userId = users[r.user].id;
        const flags = (r.read ? FLAG_BITS.read : 0) | (r.starred ? FLAG_BITS.starred : 0) | (rendered.mentionedUserIds.has(userId) ? FLAG_BITS.mentioned : 0);
        return { userId, flags };
      }),
    };
    batch.push({ bulk, channel: m.channel });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length) await flush();
  await inTransaction(app, async (tx) => {
    for (const [c, id] of firstIds) await noteFirstMessageId(tx, channelIds[c], id);
  });
  return written;
}
