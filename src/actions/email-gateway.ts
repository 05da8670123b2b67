// Message a channel by e-mail: each channel has an address at PARLANCE_EMAIL_GATEWAY_DOMAIN in the reference's
// shape, `<channel name>.<token>[.<options>]@<domain>`, where the token (32 hexadecimal digits, made when the
// address is first asked for, stored per channel) is what is checked: the name is only there for people. A mail
// to it is posted in the channel by the organization's Email Gateway bot, as on the reference server.
import crypto from 'node:crypto';
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { organizationHost, organizationUrl } from '../lib/urls.js';
import { channelByEmailToken, channelEmailToken, insertChannelEmailToken } from '../store/channel-email.js';
import { findRealm, type Realm } from '../store/realms.js';
import { findStream, type Stream } from '../store/streams.js';
import type { User } from '../store/users.js';
import { accessChannelById, viewerOf } from './channels.js';
import { checkMayPostIn, doSendMessage } from './messages-send.js';
import { emailGatewayBot } from './system-bots.js';
import { inTransaction } from './transaction.js';
import { doCreateAttachment } from './uploads.js';

export const GATEWAY_OPTIONS = ['show-sender', 'include-footer', 'include-quotes', 'prefer-html'] as const;
export type GatewayOption = (typeof GATEWAY_OPTIONS)[number];

function gatewayDomain(app: App): string {
  const domain = app.config.emailGatewayDomain?.trim().toLowerCase();
  if (!domain) throw new ApiError('The e-mail gateway is not configured on this server.');
  return domain;
}

// The reference's encoding: runs of characters other than letters and digits become one hyphen, lower case;
// kept to ASCII here, which every mail system takes in a local part.
export function encodeChannelName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9_]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40);
}

// GET /streams/{stream_id}/email_address: for whoever may post in the channel. Its address shows the sender.
export async function accessChannelEmailAddress(app: App, realm: Realm, user: User, streamId: number): Promise<string> {
  const domain = gatewayDomain(app);
  const viewer = await viewerOf(app.db, user);
  const { stream, sub } = await accessChannelById(app.db, realm, viewer, streamId);
  checkMayPostIn(viewer, stream, sub);
  let token = await channelEmailToken(app.db, stream.id);
  if (!token) {
    await inTransaction(app, (tx) => insertChannelEmailToken(tx, { streamId: stream.id, realmId: realm.id, token: crypto.randomBytes(16).toString('hex') }, Math.floor(Date.now() / 1000)));
    token = (await channelEmailToken(app.db, stream.id))!;
  }
  const name = encodeChannelName(stream.name);
  return `${name ? `${name}.` : ''}${token}.show-sender@${domain}`;
}

export interface GatewayTarget {
  realm: Realm;
  stream: Stream;
  options: Set<GatewayOption>;
}

// The channel an address reaches, or undefined: checked at RCPT, so that unknown addresses are refused before
// any mail is taken. `name.token.options`, or the older `name+token+options`.
export async function findGatewayTarget(app: App, address: string): Promise<GatewayTarget | undefined> {
  const domain = app.config.emailGatewayDomain?.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (!domain || at < 0 || address.slice(at + 1).toLowerCase() !== domain) return undefined;
  const local = address.slice(0, at).toLowerCase();
  const parts = local.split(local.includes('.') ? '.' : '+');
  const token = parts.length === 1 ? parts[0] : parts[1];
  if (!/^[0-9a-f]{32}$/.test(token)) return undefined;
  const found = await channelByEmailToken(app.db, token);
  const realm = found && (await findRealm(app.db, found.realmId));
  const stream = realm && !realm.deactivated ? await findStream(app.db, realm.id, found.streamId) : undefined;
  if (!realm || !stream || stream.isArchived) return undefined;
  const options = new Set(parts.slice(2).filter((p): p is GatewayOption => (GATEWAY_OPTIONS as readonly string[]).includes(p)));
  return { realm, stream, options };
}

export interface ReceivedMail {
  from: string;
  subject: string;
  text: string | null;
  // The HTML part already converted to text (by the receiving side).
  htmlAsText: string | null;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

// Reply and forward markers in front of a subject ("Re: Fwd: AW: …"), as the reference strips them.
const SUBJECT_PREFIX = /^\s*(?:(?:re|aw|sv|fwd?|wg)\s*(?:\[\d+\])?\s*:\s*)+/i;

export function topicFromSubject(subject: string): string {
  // eslint-disable-next-line no-control-regex
  const topic = subject.replace(SUBJECT_PREFIX, '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return topic || 'Email with no subject';
}

// The reference drops a signature when the text has exactly one line starting with "--".
function withoutFooter(text: string): string {
  const footers = text.split('\n').filter((line) => line.trim().startsWith('--'));
  return footers.length === 1 ? text.slice(0, text.indexOf('--')).trim() : text;
}

// Posts one received mail in the channel its address names; attachments are uploaded as the Email Gateway bot's
// files (through the upload action, so the quota and the size limit apply) and linked below the text.
export async function doPostEmail(app: App, target: GatewayTarget, mail: ReceivedMail): Promise<number> {
  const { realm, stream, options } = target;
  const host = organizationHost(app, realm);
  const bot = await inTransaction(app, (tx, emit) => emailGatewayBot(tx, emit, realm, host));
  const preferHtml = options.has('prefer-html') && mail.htmlAsText !== null;
  let body = ((preferHtml ? mail.htmlAsText : mail.text ?? mail.htmlAsText) ?? '').replace(/\r\n?/g, '\n').replaceAll('\0', '');
  if (!options.has('include-footer')) body = withoutFooter(body);
  const links: string[] = [];
  for (const a of mail.attachments) {
    const uploaded = await doCreateAttachment(app, realm, bot, {
      name: a.filename, declaredType: a.contentType, size: a.content.length, data: a.content, store: (key) => app.storage.put(key, a.content),
    });
    links.push(`[${uploaded.filename.replace(/[[\]]/g, '')}](${uploaded.url})`);
  }
  if (links.length) body = `${body.trimEnd()}\n${links.join('\n')}`;
  if (!body.trim()) body = '(No email body)';
  if (options.has('show-sender')) body = `From: ${mail.from}\n${body}`;
  const { id } = await doSendMessage(app, realm, bot, {
    type: 'stream', to: stream.id, topic: topicFromSubject(mail.subject), content: body, system: true, client: 'ZulipEmailMirror',
    realmUrl: organizationUrl(app, realm),
  });
  return id;
}
