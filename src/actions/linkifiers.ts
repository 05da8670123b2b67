// Linkifiers: administrators add, edit, remove and reorder them; everyone may list them. Also what message
// rendering needs from the organization beyond mentions: its linkifiers and its custom emoji.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { compileLinkifiers, linkifierProblem } from '../markdown/linkifiers.js';
import { mayNameEmoji, renderTopicLinks, type RenderContext } from '../markdown/message.js';
import type { Db, Tx } from '../store/db.js';
import { deleteLinkifier, insertLinkifier, listLinkifiers, setLinkifierPositions, updateLinkifier } from '../store/linkifiers.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';
import { customEmojiTargets } from './realm-emoji.js';
import { inTransaction, type Emit } from './transaction.js';
import { checkAdministrator } from './users.js';
import { formatLinkifier, legacyLinkifier } from '../state/linkifiers.js';

// The organization's part of a message's rendering context; custom emoji are read only when the content may
// name one.
export async function renderExtras(db: Db, realmId: number, content: string): Promise<Pick<RenderContext, 'linkifiers' | 'realmEmoji'>> {
  return {
    linkifiers: compileLinkifiers(await listLinkifiers(db, realmId)),
    ...(mayNameEmoji(content) ? { realmEmoji: await customEmojiTargets(db, realmId) } : {}),
  };
}

// topic_links for the messages of one response, each distinct topic worked out once.
export async function topicLinker(db: Db, realmId: number): Promise<(topic: string) => { text: string; url: string }[]> {
  const linkifiers = compileLinkifiers(await listLinkifiers(db, realmId));
  const seen = new Map<string, { text: string; url: string }[]>();
  return (topic) => {
    let links = seen.get(topic);
    if (!links) seen.set(topic, (links = renderTopicLinks(topic, linkifiers)));
    return links;
  };
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(message, 'BAD_REQUEST', 400, { errors: { [field]: [message] } });
}

async function checkLinkifier(tx: Tx, realm: Realm, pattern: string, urlTemplate: string, self?: number): Promise<void> {
  const problem = linkifierProblem(pattern, urlTemplate);
  if (problem) throw invalid(problem.field, problem.message);
  if ((await listLinkifiers(tx, realm.id)).some((l) => l.pattern === pattern && l.id !== self)) {
    throw invalid('__all__', 'Realm filter with this Realm and Pattern already exists.');
  }
}

async function notify(tx: Tx, emit: Emit, realm: Realm): Promise<void> {
  const list = await listLinkifiers(tx, realm.id);
  emit(realm.id, { type: 'realm_linkifiers', realm_linkifiers: list.map(formatLinkifier) }, null);
  emit(realm.id, { type: 'realm_filters', realm_filters: list.map(legacyLinkifier) }, null);
}

const notFound = () => new ApiError('Linkifier not found.');

export async function doAddLinkifier(app: App, realm: Realm, user: User, pattern: string, urlTemplate: string): Promise<number> {
  checkAdministrator(user);
  return inTransaction(app, async (tx, emit) => {
    await checkLinkifier(tx, realm, pattern.trim(), urlTemplate.trim());
    const id = await insertLinkifier(tx, realm.id, pattern.trim(), urlTemplate.trim());
    await notify(tx, emit, realm);
    return id;
  });
}

export async function doUpdateLinkifier(app: App, realm: Realm, user: User, id: number, pattern: string, urlTemplate: string): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    if (!(await listLinkifiers(tx, realm.id)).some((l) => l.id === id)) throw notFound();
    await checkLinkifier(tx, realm, pattern.trim(), urlTemplate.trim(), id);
    await updateLinkifier(tx, realm.id, id, pattern.trim(), urlTemplate.trim());
    await notify(tx, emit, realm);
  });
}

export async function doRemoveLinkifier(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    if (!(await listLinkifiers(tx, realm.id)).some((l) => l.id === id)) throw notFound();
    await deleteLinkifier(tx, realm.id, id);
    await notify(tx, emit, realm);
  });
}

export async function doReorderLinkifiers(app: App, realm: Realm, user: User, orderedIds: number[]): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    if (new Set(orderedIds).size < orderedIds.length) throw new ApiError('The ordered list must not contain duplicated linkifiers');
    const existing = new Set((await listLinkifiers(tx, realm.id)).map((l) => l.id));
    if (existing.size !== orderedIds.length || orderedIds.some((id) => !existing.has(id))) {
      throw new ApiError('The ordered list must enumerate all existing linkifiers exactly once');
    }
    if (!orderedIds.length) return;
    await setLinkifierPositions(tx, realm.id, orderedIds);
    await notify(tx, emit, realm);
  });
}

export const accessLinkifiers = async (db: Db, realm: Realm) => (await listLinkifiers(db, realm.id)).map(formatLinkifier);
export const accessLegacyLinkifiers = async (db: Db, realm: Realm) => (await listLinkifiers(db, realm.id)).map(legacyLinkifier);
