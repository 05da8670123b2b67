// Sending a message to a channel topic or a direct-message conversation.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { invalidCharacterPosition } from '../lib/text.js';
import { mentionCandidates, renderMessage, renderTopicLinks, type RenderContext, type Rendered } from '../markdown/message.js';
import { hasMetadataAccess, inGroupSetting, isGuest, type Viewer } from '../permissions/channels.js';
import { holdsGroupSetting } from '../permissions/groups.js';
import { realmSettings } from '../state/realm.js';
import { EMPTY_TOPIC_DISPLAY_NAME, SERVER_LIMITS } from '../state/realm-data.js';
import type { Db, Tx } from '../store/db.js';
import { groupMemberIds, groupsOfUser, systemGroupIds } from '../store/groups.js';
import { findUserGroup, listUserGroups } from '../store/user-groups.js';
import { dmRecipient, FLAG_BITS, flagNames, insertMessage, streamRecipient, topicExists, topicSenderIds, type Message } from '../store/messages.js';
import type { Realm } from '../store/realms.js';
import { findStream, findStreamByName, listStreams, noteFirstMessageId, type Stream } from '../store/streams.js';
import { findSubscription, subscriberIds } from '../store/subscriptions.js';
import { findUsers, findUsersByEmails, listUsers, type User } from '../store/users.js';
import { formatMessage } from '../format/messages.js';
import { fakeEmailDomain, realmFakeEmailDomain, unknownSender } from '../format/users.js';
import { realmGroupValue } from './channels.js';
import { inTransaction, type Emit } from './transaction.js';
import { renderExtras } from './linkifiers.js';
import { renderSettings } from './render-settings.js';
import { doEmbedLinks } from './link-embeds.js';
import { flagAlertWords } from './alert-words.js';
import { claimAttachments } from './attachment-claims.js';
import { checkRecipientsAccessible } from './users.js';
import { accessibleBy, blindAmong, canAccessUser } from '../permissions/users.js';
import { mutersOf } from '../store/muted-users.js';
import { addWidget } from './submessages.js';
import { queueWebhookTriggers } from './outgoing-webhooks.js';
import { usersById, usersNamed } from './user-index.js';

export interface SendInput {
  type: 'stream' | 'private';
  to: unknown;
  topic?: string;
  content: string;
  localId?: string;
  queueId?: string;
  readBySender?: boolean;
  client?: string;
  // Sent by a system bot on the server's behalf (a report, a notice, a welcome, a reminder, a scheduled-message
  // failure): `to` is a channel id or user ids, and no permission or policy is checked.
  system?: boolean;
  // Recipients for whom the message arrives already read (a notice about their own action).
  markRead?: (userId: number) => boolean;
  // The organization's placeholder domain (realmFakeEmailDomain, set by doSendMessage from configuration): for `to`
  // lists of e-mails, and for senders shown as placeholders.
  placeholderDomain?: string;
  // The organization's address (from configuration): links into it are stored relative.
  realmUrl?: string;
  // The content already rendered (before the transaction), with its context.
  prerendered?: { ctx: RenderContext; rendered: Rendered };
  // An outgoing-webhook bot's answer: how many bot answers led to it (src/actions/outgoing-webhooks.ts).
  webhookDepth?: number;
}

// What has:attachment finds: a message linking to an upload (whether or not the file is the sender's).
export const linksUpload = (content: string) => /\/user_uploads\//.test(content);

// Wildcard mentions reaching more users than this need can_mention_many_users_group.
export const WILDCARD_MENTION_THRESHOLD = 15;

const truncate = (s: string, max: number, marker: string) => {
  const chars = [...s];
  return chars.length <= max ? s : chars.slice(0, max - [...marker].length).join('') + marker;
};

export function checkContent(raw: string): string {
  const content = raw.replace(/\r\n?/g, '\n').trimEnd().replace(/^\n+/, '');
  if (!content.trim()) throw new ApiError('Message must not be empty');
  return truncate(content, SERVER_LIMITS.max_message_length, '\n[message truncated]');
}

// `(no topic)` and the display name of the empty topic are read as the empty topic (feature level 370).
export function checkTopic(raw: string | undefined): string {
  let topic = (raw ?? '').trim();
  const bad = invalidCharacterPosition(topic);
  if (bad) throw new ApiError(`Invalid character in topic, at position ${bad}!`);
  if (topic === '(no topic)' || topic === EMPTY_TOPIC_DISPLAY_NAME) topic = '';
  return truncate(topic, SERVER_LIMITS.max_topic_length, '...');
}

function parseChannelTarget(to: unknown): number | string {
  const value = Array.isArray(to) && to.length === 1 ? to[0] : to;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && value.trim()) return /^\d+$/.test(value.trim()) ? Number(value.trim()) : value.trim();
  throw new ApiError('Invalid channel name or ID');
}

function parseDmTargets(to: unknown): (number | string)[] {
  const list = Array.isArray(to) ? to : typeof to === 'number' ? [to] : typeof to === 'string' ? to.split(',').map((s) => s.trim()).filter(Boolean) : null;
  if (Array.isArray(list) && !list.length) throw new ApiError('Message must have recipients');
  if (!list || !list.length || !list.every((x) => (typeof x === 'number' && Number.isInteger(x)) || typeof x === 'string')) {
    throw new ApiError('Invalid recipient list');
  }
  return list as (number | string)[];
}

async function accessChannelForSending(tx: Tx, realm: Realm, v: Viewer, to: number | string): Promise<Stream> {
  const stream = typeof to === 'number' ? await findStream(tx, realm.id, to) : await findStreamByName(tx, realm.id, to);
  const sub = stream && (await findSubscription(tx, v.user.id, stream.id));
  if (!stream || !hasMetadataAccess(v, stream, sub)) {
    if (typeof to === 'number') throw new ApiError(`Channel with ID '${to}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream_id: to });
    throw new ApiError(`Channel '${to}' does not exist`, 'STREAM_DOES_NOT_EXIST', 400, { stream: to });
  }
  checkMayPostIn(v, stream, sub);
  return stream;
}

// Whether the viewer may post in a channel they know of (also decides who may have its e-mail address).
export function checkMayPostIn(v: Viewer, stream: Stream, sub: { active: boolean } | undefined | null): void {
  const canPost = sub?.active || (!stream.inviteOnly && !isGuest(v.user));
  if (!canPost || stream.isArchived) throw new ApiError(`Not authorized to send to channel '${stream.name}'`);
  if (!inGroupSetting(v, stream.groups.can_send_message_group)) throw new ApiError('You do not have permission to post in this channel.');
}

// `sender`'s settings shape the rendering (emoticons, previews); `viewer` is whose access decides which users a
// mention may name (a guest limited by can_access_all_users_group mentions only those they may access; others stay
// text) and which channels a `#**channel**` link may name (id and all): null for the server's own notices, which
// may name any.
export async function renderContext(tx: Db, realm: Realm, content: string, sender: User, viewer: Viewer | null, realmUrl?: string): Promise<RenderContext> {
  const c = mentionCandidates(content);
  const ctx: RenderContext = {
    usersByName: new Map(), usersById: new Map(), groupsByName: new Map(), channelsByName: new Map(), ...(await renderExtras(tx, realm.id, content)),
    ...(await renderSettings(tx, realm, content, sender, realmUrl)),
  };
  if (c.names.length || c.ids.length) {
    const accessible = viewer ? await accessibleBy(tx, realm, viewer.user) : null;
    const users = await listUsers(tx, realm.id);
    const mentionable = (u: User | undefined): u is User => !!u && u.isActive && canAccessUser(accessible, u);
    for (const name of new Set(c.names)) {
      const named = usersNamed(users, name).filter(mentionable);
      if (named.length) ctx.usersByName.set(name, named.map((u) => ({ id: u.id, fullName: u.fullName })));
    }
    const byId = usersById(users);
    for (const id of c.ids) {
      const u = byId(id);
      if (mentionable(u)) ctx.usersById.set(id, { id, fullName: u.fullName });
    }
  }
  if (c.groups.length) {
    for (const g of await listUserGroups(tx, realm.id)) {
      if (!g.deactivated && c.groups.includes(g.name.toLowerCase())) ctx.groupsByName.set(g.name.toLowerCase(), { id: g.id, name: g.name });
    }
  }
  if (c.channels.length) {
    for (const s of await listStreams(tx, realm.id)) {
      if (!c.channels.includes(s.name.toLowerCase())) continue;
      // A channel the author may not know of renders as text, exactly like one that does not exist.
      if (viewer && !hasMetadataAccess(viewer, s, await findSubscription(tx, viewer.user.id, s.id))) continue;
      ctx.channelsByName.set(s.name.toLowerCase(), { id: s.id, name: s.name });
    }
  }
  return ctx;
}

// A group may be mentioned by the users its can_mention_group allows; its members (through subgroups too) are
// then mentioned.
export async function checkGroupMentions(tx: Tx, realm: Realm, v: Viewer, groupIds: Set<number>, systemGroups: Map<string, number>): Promise<Set<number>> {
  const mentioned = new Set<number>();
  for (const id of groupIds) {
    const g = (await findUserGroup(tx, realm.id, id))!;
    const allowed = g.settings.can_mention_group ?? (g.isSystemGroup ? systemGroups.get('role:nobody')! : systemGroups.get('role:everyone')!);
    if (!inGroupSetting(v, allowed)) throw new ApiError(`You are not allowed to mention user group '${g.name}'.`);
    for (const userId of await groupMemberIds(tx, [id])) mentioned.add(userId);
  }
  return mentioned;
}

async function checkTopicAllowed(tx: Tx, v: Viewer, stream: Stream, topic: string, realmPolicy: string): Promise<void> {
  const policy = stream.topicsPolicy === 'inherit' ? realmPolicy : stream.topicsPolicy;
  if (topic === '' && policy === 'disable_empty_topic') throw new ApiError('Sending messages to the general chat is not allowed in this channel.');
  if (topic !== '' && policy === 'empty_topic_only') throw new ApiError('Only the general chat topic is allowed in this channel.');
  if (!inGroupSetting(v, stream.groups.can_create_topic_group) && !(await topicExists(tx, stream.id, topic))) {
    throw new ApiError('You do not have permission to create new topics in this channel.');
  }
}

export async function doSendMessage(app: App, realm: Realm, sender: User, input: SendInput): Promise<{ id: number }> {
  // Rendered before the transaction, as the reference renders: a long message's highlighting and math do not
  // hold the database (on SQLite, the other writers).
  const content = checkContent(input.content);
  const viewer: Viewer | null = input.system ? null : { user: sender, groups: await groupsOfUser(app.db, sender.id) };
  const ctx = await renderContext(app.db, realm, content, sender, viewer, input.realmUrl);
  const prerendered = { ctx, rendered: renderMessage(content, ctx) };
  const placeholderDomain = realmFakeEmailDomain(app, realm);
  const sent = await inTransaction(app, (tx, emit) => sendMessageInTx(tx, emit, realm, sender, { ...input, placeholderDomain, prerendered }));
  // Link embeds are fetched after the send, and arrive as an update of the message.
  if (sent.linksForPreview?.length) {
    const contextFor = (tx: Tx, content: string) => renderContext(tx, realm, content, sender, viewer, input.realmUrl);
    doEmbedLinks(app, realm, sent.id, sent.linksForPreview, contextFor).catch((err) => app.log.warn({ err }, 'link embeds failed'));
  }
  return { id: sent.id };
}

// The send path inside a caller's transaction, so that work tied to the send (marking a scheduled message
// delivered) commits or rolls back with it.
export async function sendMessageInTx(tx: Tx, emit: Emit, realm: Realm, sender: User, input: SendInput): Promise<{ id: number; linksForPreview?: string[] }> {
  const content = checkContent(input.content);
  const v: Viewer = { user: sender, groups: await groupsOfUser(tx, sender.id) };
  const systemGroups = await systemGroupIds(tx, realm.id);
  const settings = realmSettings(realm);
  let stream: Stream | null = null;
  let topic = '';
  let recipientId: number;
  let recipients: number[];
  if (input.type === 'stream') {
    if (input.topic === undefined) throw new ApiError('Missing topic');
    stream = input.system ? (await findStream(tx, realm.id, Number(input.to)))! : await accessChannelForSending(tx, realm, v, parseChannelTarget(input.to));
    topic = checkTopic(input.topic);
    if (!input.system) await checkTopicAllowed(tx, v, stream, topic, String(settings.topics_policy));
    recipientId = await streamRecipient(tx, realm.id, stream.id);
    recipients = (await subscriberIds(tx, [stream.id])).get(stream.id)!;
  } else {
    const targets = parseDmTargets(input.to);
    const ids = targets.filter((t): t is number => typeof t === 'number');
    const emails = targets.filter((t): t is string => typeof t === 'string');
    const placeholderDomain = input.placeholderDomain ?? fakeEmailDomain(undefined, realm.stringId);
    const users = [...(await findUsers(tx, realm.id, ids)), ...(await findUsersByEmails(tx, realm.id, emails, placeholderDomain))];
    for (const id of ids) if (!users.some((u) => u.id === id)) throw new ApiError(`Invalid user ID ${id}`);
    for (const e of emails) if (!users.some((u) => u.email.toLowerCase() === e.toLowerCase())) throw new ApiError(`Invalid email '${e}'`);
    const inactive = users.find((u) => !u.isActive);
    if (inactive) throw new ApiError(`'${inactive.email}' is no longer using Zulip.`);
    if (!input.system) await checkRecipientsAccessible(tx, realm, sender, users);
    const others = users.filter((u) => u.id !== sender.id);
    const dmGroup = realmGroupValue(realm, 'direct_message_permission_group', systemGroups);
    if (others.length && !input.system && !inGroupSetting(v, dmGroup)) {
      for (const o of others) {
        if (!holdsGroupSetting(dmGroup, o.id, await groupsOfUser(tx, o.id))) throw new ApiError('You do not have permission to send direct messages to this recipient.');
      }
    }
    recipients = [...new Set([sender.id, ...users.map((u) => u.id)])];
    recipientId = await dmRecipient(tx, realm.id, recipients);
  }

  const ctx = input.prerendered?.ctx ?? (await renderContext(tx, realm, content, sender, input.system ? null : v, input.realmUrl));
  const rendered = input.prerendered?.rendered ?? renderMessage(content, ctx);
  // A topic wildcard mention reaches the topic's participants only, the sender among them.
  const topicParticipants = rendered.topicWildcard && stream ? (await topicSenderIds(tx, stream.id, topic)).add(sender.id) : new Set<number>();
  const mayMentionMany = input.system || inGroupSetting(v, realmGroupValue(realm, 'can_mention_many_users_group', systemGroups));
  if (rendered.streamWildcard && stream && recipients.length > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ApiError('You do not have permission to use channel wildcard mentions in this channel.', 'STREAM_WILDCARD_MENTION_NOT_ALLOWED');
  }
  if (topicParticipants.size > WILDCARD_MENTION_THRESHOLD && !mayMentionMany) {
    throw new ApiError('You do not have permission to use topic wildcard mentions in this topic.', 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED');
  }
  const groupMentioned = input.system ? new Set<number>() : await checkGroupMentions(tx, realm, v, rendered.mentionedGroupIds, systemGroups);
  const recipientSet = new Set(recipients);
  if (!recipientSet.has(sender.id)) recipients.push(sender.id); // the sender always has a row, e.g. posting unsubscribed
  const now = Math.floor(Date.now() / 1000);
  const message: Omit<Message, 'id'> = {
    realmId: realm.id, senderId: sender.id, recipientId, streamId: stream?.id ?? null, topic, content,
    renderedContent: rendered.html, dateSent: now, client: input.client ?? 'API', lastEditTime: null, lastMovedTime: null,
    editHistory: null, hasLink: rendered.hasLink, hasImage: rendered.hasImage, hasAttachment: linksUpload(content), isMeMessage: rendered.isMeMessage,
  };
  // Those who muted the sender get the message already read, as on the reference server.
  const muters = await mutersOf(tx, realm.id, sender.id);
  const flagsFor = (userId: number) =>
    ((userId === sender.id && input.readBySender !== false) || input.markRead?.(userId) || muters.has(userId) ? FLAG_BITS.read : 0) |
    (rendered.mentionedUserIds.has(userId) || groupMentioned.has(userId) ? FLAG_BITS.mentioned : 0) |
    (rendered.streamWildcard ? FLAG_BITS.stream_wildcard_mentioned : 0) |
    (topicParticipants.has(userId) ? FLAG_BITS.topic_wildcard_mentioned : 0) |
    (userId === sender.id && !recipientSet.has(sender.id) ? FLAG_BITS.historical : 0);
  const rows = recipients.map((userId) => ({ userId, flags: flagsFor(userId) }));
  await flagAlertWords(tx, realm.id, content, rows);
  const id = await insertMessage(tx, message, rows);
  const widget = await addWidget(tx, id, sender.id, content);
  await claimAttachments(tx, emit, realm, sender, id, content);
  if (stream && stream.firstMessageId === null) await noteFirstMessageId(tx, stream.id, id);

  const lookups = {
    realm,
    users: new Map([[sender.id, sender], ...(stream ? [] : (await findUsers(tx, realm.id, recipients)).map((u) => [u.id, u] as const))]),
    streamNames: new Map(stream ? [[stream.id, stream.name]] : []),
    dmMembers: new Map(stream ? [] : [[recipientId, [...recipients].sort((a, b) => a - b)]]),
    topicLinks: (t: string) => renderTopicLinks(t, ctx.linkifiers ?? []),
    submessages: new Map([[id, widget as unknown as Record<string, unknown>[]]]),
  };
  const formatted = formatMessage({ ...message, id }, lookups, { applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: true });
  await queueWebhookTriggers(tx, realm, sender, {
    id, stream: stream && { id: stream.id, inviteOnly: stream.inviteOnly }, recipients, mentioned: rendered.mentionedUserIds, depth: input.webhookDepth ?? 0,
    payload: { ...formatted, content, rendered_content: formatted.content, content_type: 'text/x-markdown' },
  });
  // Subscribers share the channel with a subscribed sender; one posting unsubscribed may be unknown to guests.
  const blind = stream && !recipientSet.has(sender.id) ? await blindAmong(tx, realm, sender, recipients) : new Set<number>();
  const fakeDomain = input.placeholderDomain ?? fakeEmailDomain(undefined, realm.stringId);
  emit(realm.id, {
    type: 'message',
    message: formatted,
    ...(blind.size ? { _blind: [...blind], _blind_patch: { message: unknownSender(sender.id, fakeDomain) } } : {}),
    _raw_content: content,
    ...(input.queueId ? { _sender_queue_id: input.queueId, _local_id: input.localId } : {}),
    ...(stream && !stream.inviteOnly ? { _public_channel: true } : {}),
  }, rows.map((r) => (r.flags ? { id: r.userId, flags: flagNames(r.flags) } : r.userId))); // no flags: the id alone
  return { id, linksForPreview: rendered.linksForPreview };
}

