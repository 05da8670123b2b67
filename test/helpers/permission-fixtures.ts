// Objects the permission matrix's cases act on, made through the API by the owner or by the caller, and who the
// callers are.
import { Client, send, type ParamValue, type Reply } from './client.js';
import { PASSWORD, type SeedName, type TestServer } from './server.js';

export type Role = 'owner' | 'admin' | 'moderator' | 'member' | 'guest' | 'bot';
export const ROLES: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest', 'bot'];
export const SEED_OF: Record<Role, SeedName> = { owner: 'desdemona', admin: 'iago', moderator: 'shiva', member: 'hamlet', guest: 'polonius', bot: 'bot' };
export type Caller = Role | 'other' | 'anon'; // anon: for endpoints that take no credentials

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-tiny')]);

// A status alone, or [status, code, msg].
export type Outcome = number | [number, string, string];
export const ADMIN: Outcome = [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator'];
export const OWNER: Outcome = [400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner'];
export const ADMINS: Role[] = ['owner', 'admin'];
export const NOT_GUEST: Role[] = ['owner', 'admin', 'moderator', 'member', 'bot'];
export const HUMANS: Role[] = ['owner', 'admin', 'moderator', 'member', 'guest'];
export const MEMBERS_AND_UP: Role[] = ['owner', 'admin', 'moderator', 'member'];
export const NO_BOTS: Outcome = [400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.'];
export const NO_GUESTS: Outcome = [400, 'BAD_REQUEST', 'Not allowed for guest users'];
export const BAD_MESSAGE: Outcome = [400, 'BAD_REQUEST', 'Invalid message(s)'];
export const NO_USER: Outcome = [400, 'BAD_REQUEST', 'No such user'];
export const NO_FILE: Outcome = [404, 'BAD_REQUEST', 'This file does not exist or has been deleted.'];

export interface Req {
  method?: string;
  path: string;
  params?: Record<string, ParamValue>;
  multipart?: FormData;
  tus?: { headers: Record<string, string>; body?: Buffer | string };
}
export interface Case {
  key: string; // "METHOD /api/v1/path" as in GET /api/v1/openapi.json
  label?: string;
  request(f: Fixtures, who: Caller): Promise<Req> | Req;
  ok?: Role[];
  success?: number; // the status of success, when not 200
  html?: boolean; // answered with pages (errors too), for people in a browser
  denied?: Outcome;
  other?: Outcome;
  anon?: Outcome;
  byRole?: Partial<Record<Role, Outcome>>; // where a denial differs between roles
  check?(reply: Reply, who: Caller, f: Fixtures): void;
}

// The caller's own client, and who they are (a member stands in for callers without credentials).
export const own = (f: Fixtures, who: Caller) => f.client(who);
export const me = (f: Fixtures, who: Caller) => (who === 'other' ? f.server.users.lear : f.server.users[SEED_OF[who === 'anon' ? 'member' : who]]);

let serial = 0;
export const unique = (prefix: string) => `${prefix}${++serial}`;

export class Fixtures {
  matrix = 0; // public channel every seed user of the organization is subscribed to
  vault = 0; // private channel only cordelia is subscribed to
  message = 0; // hamlet's message in Matrix
  vaultMessage = 0; // cordelia's message in Vault
  emojiUrl = '';
  owners = 0; // the role:owners system group
  matrixFile = ''; // cordelia's upload, linked from a message in Matrix
  vaultFile = ''; // cordelia's upload, linked from a message in Vault
  constructor(readonly server: TestServer) {}

  client(who: Caller): Client {
    if (who === 'anon') return this.server.anon();
    return this.server.as(who === 'other' ? 'lear' : SEED_OF[who]);
  }

  async ok(reply: Promise<Reply>): Promise<any> {
    const r = await reply;
    if (r.status !== 200) throw new Error(`fixture failed: ${r.status} ${r.text}`);
    return r.body;
  }

  async setUp(): Promise<void> {
    const s = this.server;
    const everyone = (['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius', 'bot'] as SeedName[]).map((n) => s.users[n].id);
    await this.ok(s.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'Matrix' }], principals: everyone }));
    await this.ok(s.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'Vault' }], principals: [s.users.cordelia.id], invite_only: true }));
    await this.ok(s.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name: 'Moderation' }], invite_only: true }));
    const ids = new Map<string, number>(((await this.ok(s.as('desdemona').get('/streams', { include_all: true }))).streams as { name: string; stream_id: number }[]).map((x) => [x.name, x.stream_id]));
    [this.matrix, this.vault] = [ids.get('Matrix')!, ids.get('Vault')!];
    await this.ok(s.as('desdemona').patch('/realm', { moderation_request_channel_id: ids.get('Moderation')! }));
    this.message = await this.send('hamlet', 'Matrix');
    this.vaultMessage = await this.send('cordelia', 'Vault');
    this.emojiUrl = await this.addEmoji('cordelia');
    const groups = (await this.ok(s.as('desdemona').get('/user_groups'))).user_groups as { id: number; name: string }[];
    this.owners = groups.find((g) => g.name === 'role:owners')!.id;
    for (const channel of ['Matrix', 'Vault']) {
      const url = await this.upload(s.as('cordelia'), `${channel.toLowerCase()}.txt`);
      await this.ok(s.as('cordelia').post('/messages', { type: 'stream', to: channel, topic: 'files', content: `[file](${url})` }));
      if (channel === 'Matrix') this.matrixFile = url;
      else this.vaultFile = url;
    }
  }

  // Uploads a small text file and returns its URL (/user_uploads/...).
  async upload(client: Client, name = 'notes.txt'): Promise<string> {
    const form = new FormData();
    form.append('file', new Blob(['some notes'], { type: 'text/plain' }), name);
    return (await this.ok(sendForm(client, 'POST', '/api/v1/user_uploads', form))).url;
  }

  // The id of an attachment the client uploads.
  async attachment(client: Client): Promise<number> {
    const pathId = (await this.upload(client)).slice('/user_uploads/'.length);
    return ((await this.ok(client.get('/attachments'))).attachments as { id: number; path_id: string }[]).find((a) => a.path_id === pathId)!.id;
  }

  // Starts a resumable upload of `length` bytes and returns its location (/api/v1/tus/...).
  async tusUpload(client: Client, length = 5): Promise<string> {
    const reply = await sendTus(client, 'POST', '/api/v1/tus', { 'upload-length': String(length), 'upload-metadata': `filename ${Buffer.from('big.txt').toString('base64')}` });
    if (reply.status !== 201) throw new Error(`fixture failed: ${reply.status} ${reply.text}`);
    return reply.headers.location!;
  }

  async invite(): Promise<{ id: number; key: string }> {
    const link = (await this.ok(this.server.as('desdemona').post('/invites/multiuse', { invite_as: 400 }))).invite_link as string;
    const invites = (await this.ok(this.server.as('desdemona').get('/invites'))).invites as { id: number; link_url: string }[];
    return { id: invites.find((i) => i.link_url === link)!.id, key: /\/join\/([^/]+)\//.exec(link)![1] };
  }

  async reminder(client: Client): Promise<number> {
    const at = Math.floor(Date.now() / 1000) + 3600;
    return (await this.ok(client.post('/reminders', { message_id: this.message, scheduled_delivery_timestamp: at }))).reminder_id;
  }

  async bot(owner: SeedName): Promise<number> {
    return (await this.ok(this.server.as(owner).post('/bots', { full_name: unique('Helper '), short_name: unique('helper') }))).user_id;
  }

  async profileField(editable = true): Promise<number> {
    return (await this.ok(this.server.as('iago').post('/realm/profile_fields', { field_type: 1, name: unique('Field '), editable_by_user: editable }))).id;
  }

  async domain(): Promise<string> {
    const domain = `${unique('d')}.example.net`;
    await this.ok(this.server.as('desdemona').post('/realm/domains', { domain }));
    return domain;
  }

  async send(who: SeedName, channel: string): Promise<number> {
    return (await this.ok(this.server.as(who).post('/messages', { type: 'stream', to: channel, topic: 'matrix', content: unique('message ') }))).id;
  }

  async addEmoji(who: SeedName): Promise<string> {
    const name = unique('emoji_');
    const reply = await upload(this.server.as(who), name);
    if (reply.status !== 200) throw new Error(reply.text);
    const list = await this.ok(this.server.as(who).get('/realm/emoji'));
    return (Object.values(list.emoji) as { name: string; source_url: string }[]).find((e) => e.name === name)!.source_url;
  }

  async channelFor(who: Caller): Promise<number> {
    const name = unique('Fresh ');
    const principals = who === 'other' || who === 'anon' ? [] : [this.server.users[SEED_OF[who]].id];
    await this.ok(this.server.as('desdemona').post('/users/me/subscriptions', { subscriptions: [{ name }], principals }));
    return (await this.ok(this.server.as('desdemona').get('/get_stream_id', { stream: name }))).stream_id;
  }

  async user(): Promise<number> {
    const email = `${unique('fresh')}@zulip.example.com`;
    return (await this.ok(this.server.as('iago').post('/users', { email, password: PASSWORD, full_name: 'Fresh User' }))).user_id;
  }

  async group(owner: SeedName): Promise<number> {
    const name = unique('group ');
    await this.ok(this.server.as(owner).post('/user_groups/create', { name, description: 'd', members: [this.server.users[owner].id] }));
    const groups = (await this.ok(this.server.as(owner).get('/user_groups'))).user_groups as { id: number; name: string }[];
    return groups.find((g) => g.name === name)!.id;
  }

  async linkifier(): Promise<number> {
    return (await this.ok(this.server.as('iago').post('/realm/filters', { pattern: `${unique('T')}-(?P<id>[0-9]+)`, url_template: 'https://t.example/{id}' }))).id;
  }

  async draft(who: SeedName | Client): Promise<number> {
    const client = typeof who === 'string' ? this.server.as(who) : who;
    const drafts = [{ type: '', to: [], topic: '', content: unique('draft '), timestamp: Math.floor(Date.now() / 1000) }];
    return (await this.ok(client.post('/drafts', { drafts }))).ids[0];
  }

  async scheduled(who: SeedName | Client): Promise<number> {
    const client = typeof who === 'string' ? this.server.as(who) : who;
    const to = client.host ? this.server.users.lear.id : this.server.users.hamlet.id;
    const params = { type: 'direct', to: [to], content: unique('later '), scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600 };
    return (await this.ok(client.post('/scheduled_messages', params))).scheduled_message_id;
  }

  async snippet(who: SeedName | Client): Promise<number> {
    const client = typeof who === 'string' ? this.server.as(who) : who;
    return (await this.ok(client.post('/saved_snippets', { title: unique('t'), content: 'c' }))).saved_snippet_id;
  }
}

export function upload(client: Client, name: string): Promise<Reply> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'e.png');
  return sendForm(client, 'POST', `/api/v1/realm/emoji/${name}`, form);
}

// A request of the tus protocol: headers of its own and a raw body.
export function sendTus(client: Client, method: string, path: string, extra: Record<string, string>, body?: Buffer | string): Promise<Reply> {
  const headers = client.headers({ 'tus-resumable': '1.0.0', ...extra });
  if (client.host) headers.host = client.host;
  return send(method, new URL(path, client.baseUrl), headers, body);
}

export async function sendForm(client: Client, method: string, path: string, form: FormData): Promise<Reply> {
  const request = new Request('http://x/', { method: 'POST', body: form });
  const body = Buffer.from(await request.arrayBuffer());
  const headers = client.headers({ 'content-type': request.headers.get('content-type')! });
  if (client.host) headers.host = client.host;
  return send(method, new URL(path, client.baseUrl), headers, body);
}

