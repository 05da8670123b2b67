// Saved snippets and navigation views (§2.9): per-user records, each change announced to the user's clients.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { codePointLength } from '../lib/text.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import type { Tx } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import {
  countSnippets, countViews, deleteSnippet, deleteView, findSnippet, findView, insertSnippet, insertView, listSnippets, listViews, updateSnippet, updateView,
  type NavigationView, type SavedSnippet,
} from '../store/snippets-views.js';
import type { User } from '../store/users.js';
import { checkRoom } from './per-user-limits.js';
import { inTransaction } from './transaction.js';

const MAX_SNIPPET_TITLE = 60;
// A view's address within the web app (narrow/…): room for long searches, not for a store of bytes.
const MAX_FRAGMENT = 2000;

function checkTitle(title: string): string {
  const t = title.trim();
  if (!t) throw new ApiError('Title cannot be empty.');
  if (codePointLength(t) > MAX_SNIPPET_TITLE) throw new ApiError(`Title is too long (limit: ${MAX_SNIPPET_TITLE} characters).`);
  return t;
}

function checkSnippetContent(content: string): string {
  if (!content.trim()) throw new ApiError('Content cannot be empty.');
  if (codePointLength(content) > SERVER_LIMITS.max_message_length) throw new ApiError(`Content is too long (limit: ${SERVER_LIMITS.max_message_length} characters).`);
  return content;
}

const snippetMissing = () => new ApiError('Saved snippet does not exist.', 'BAD_REQUEST', 404);

export async function doCreateSnippet(app: App, realm: Realm, user: User, title: string, content: string): Promise<number> {
  const snippet = { title: checkTitle(title), content: checkSnippetContent(content), date_created: Math.floor(Date.now() / 1000) };
  return inTransaction(app, async (tx, emit) => {
    checkRoom(await countSnippets(tx, user.id), 1, 'saved snippets');
    const saved = await insertSnippet(tx, user.id, snippet);
    emit(realm.id, { type: 'saved_snippets', op: 'add', saved_snippet: saved }, [user.id]);
    return saved.id;
  });
}

// A request that changes nothing succeeds, as on the reference server.
export async function doEditSnippet(app: App, realm: Realm, user: User, id: number, changes: { title?: string; content?: string }): Promise<void> {
  const checked = {
    ...(changes.title !== undefined ? { title: checkTitle(changes.title) } : {}),
    ...(changes.content !== undefined ? { content: checkSnippetContent(changes.content) } : {}),
  };
  await inTransaction(app, async (tx, emit) => {
    const old = await findSnippet(tx, user.id, id);
    if (!old) throw snippetMissing();
    if (!Object.keys(checked).length) return;
    await updateSnippet(tx, id, checked);
    emit(realm.id, { type: 'saved_snippets', op: 'update', saved_snippet: { ...old, ...checked } }, [user.id]);
  });
}

export async function doDeleteSnippet(app: App, realm: Realm, user: User, id: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    if (!(await findSnippet(tx, user.id, id))) throw snippetMissing();
    await deleteSnippet(tx, id);
    emit(realm.id, { type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, [user.id]);
  });
}

export const accessSnippets = (app: App, user: User): Promise<SavedSnippet[]> => listSnippets(app.db, user.id);

// Views the web app offers itself: they may be pinned or hidden, but never renamed.
export const BUILT_IN_VIEWS = new Set(['inbox', 'recent', 'feed', 'drafts', 'scheduled', 'reminders', 'starred', 'mentions', 'reactions', 'narrow/is/starred', 'narrow/is/mentioned', 'narrow/has/reaction/sender/me', 'channels/subscribed']);

function checkViewName(fragment: string, name: string | null | undefined): string | null {
  if (BUILT_IN_VIEWS.has(fragment)) {
    if (name !== undefined && name !== null) throw new ApiError('Built-in views cannot have a custom name.');
    return null;
  }
  if (!name || !name.trim()) throw new ApiError('Custom views must have a valid name.');
  if (codePointLength(name.trim()) > 100) throw new ApiError('Name is too long (limit: 100 characters).');
  return name.trim();
}

const viewMissing = () => new ApiError('Navigation view does not exist.', 'NOT_FOUND', 404);

// Custom views are told apart by name as well as by fragment.
async function checkNameFree(tx: Tx, user: User, fragment: string, name: string | null): Promise<void> {
  if (name !== null && (await listViews(tx, user.id)).some((v) => v.fragment !== fragment && v.name === name)) {
    throw new ApiError('Navigation view already exists.');
  }
}

export async function doAddView(app: App, realm: Realm, user: User, fragment: string, isPinned: boolean, name?: string | null): Promise<void> {
  const f = fragment.trim();
  if (!f) throw new ApiError('fragment cannot be blank');
  if (codePointLength(f) > MAX_FRAGMENT) throw new ApiError(`Fragment is too long (limit: ${MAX_FRAGMENT} characters).`);
  const checkedName = checkViewName(f, name);
  const view: NavigationView = { fragment: f, is_pinned: isPinned, ...(checkedName !== null ? { name: checkedName } : {}) };
  await inTransaction(app, async (tx, emit) => {
    if (await findView(tx, user.id, f)) throw new ApiError('Navigation view already exists.');
    await checkNameFree(tx, user, f, checkedName);
    checkRoom(await countViews(tx, user.id), 1, 'navigation views');
    await insertView(tx, user.id, view);
    emit(realm.id, { type: 'navigation_view', op: 'add', navigation_view: view }, [user.id]);
  });
}

export async function doEditView(app: App, realm: Realm, user: User, fragment: string, changes: { is_pinned?: boolean; name?: string | null }): Promise<void> {
  if (changes.is_pinned === undefined && changes.name === undefined) throw new ApiError('No new data supplied');
  await inTransaction(app, async (tx, emit) => {
    if (!(await findView(tx, user.id, fragment))) throw viewMissing();
    const data = { ...changes, ...(changes.name !== undefined ? { name: checkViewName(fragment, changes.name) } : {}) };
    if (data.name !== undefined) await checkNameFree(tx, user, fragment, data.name);
    await updateView(tx, user.id, fragment, data);
    emit(realm.id, { type: 'navigation_view', op: 'update', fragment, data }, [user.id]);
  });
}

export async function doRemoveView(app: App, realm: Realm, user: User, fragment: string): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    if (!(await findView(tx, user.id, fragment))) throw viewMissing();
    await deleteView(tx, user.id, fragment);
    emit(realm.id, { type: 'navigation_view', op: 'remove', fragment }, [user.id]);
  });
}

export const accessViews = (app: App, user: User): Promise<NavigationView[]> => listViews(app.db, user.id);
