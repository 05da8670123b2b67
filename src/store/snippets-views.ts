import type { Db } from './db.js';

export interface SavedSnippet {
  id: number;
  title: string;
  content: string;
  date_created: number;
}

export async function insertSnippet(db: Db, userId: number, s: Omit<SavedSnippet, 'id'>): Promise<SavedSnippet> {
  const row = await db.insertInto('saved_snippets').values({ user_id: userId, ...s }).returning(['id', 'title', 'content', 'date_created']).executeTakeFirstOrThrow();
  return row;
}

export async function countSnippets(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('saved_snippets').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function findSnippet(db: Db, userId: number, id: number): Promise<SavedSnippet | undefined> {
  return db.selectFrom('saved_snippets').select(['id', 'title', 'content', 'date_created']).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
}

export async function updateSnippet(db: Db, id: number, changes: { title?: string; content?: string }): Promise<void> {
  await db.updateTable('saved_snippets').set(changes).where('id', '=', id).execute();
}

export async function deleteSnippet(db: Db, id: number): Promise<void> {
  await db.deleteFrom('saved_snippets').where('id', '=', id).execute();
}

export async function listSnippets(db: Db, userId: number): Promise<SavedSnippet[]> {
  return db.selectFrom('saved_snippets').select(['id', 'title', 'content', 'date_created']).where('user_id', '=', userId).orderBy('id').execute();
}

// `name` is omitted for the built-in views (§2.9).
export interface NavigationView {
  fragment: string;
  is_pinned: boolean;
  name?: string | null;
}

const toView = (r: { fragment: string; is_pinned: number; name: string | null }): NavigationView => ({
  fragment: r.fragment,
  is_pinned: r.is_pinned === 1,
  ...(r.name !== null ? { name: r.name } : {}),
});

export async function findView(db: Db, userId: number, fragment: string): Promise<NavigationView | undefined> {
  const row = await db.selectFrom('navigation_views').select(['fragment', 'is_pinned', 'name']).where('user_id', '=', userId).where('fragment', '=', fragment).executeTakeFirst();
  return row && toView(row);
}

export async function countViews(db: Db, userId: number): Promise<number> {
  const row = await db.selectFrom('navigation_views').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertView(db: Db, userId: number, v: NavigationView): Promise<void> {
  await db.insertInto('navigation_views').values({ user_id: userId, fragment: v.fragment, is_pinned: v.is_pinned ? 1 : 0, name: v.name ?? null }).execute();
}

export async function updateView(db: Db, userId: number, fragment: string, changes: { is_pinned?: boolean; name?: string | null }): Promise<void> {
  const v: { is_pinned?: number; name?: string | null } = {};
  if (changes.is_pinned !== undefined) v.is_pinned = changes.is_pinned ? 1 : 0;
  if (changes.name !== undefined) v.name = changes.name;
  await db.updateTable('navigation_views').set(v).where('user_id', '=', userId).where('fragment', '=', fragment).execute();
}

export async function deleteView(db: Db, userId: number, fragment: string): Promise<void> {
  await db.deleteFrom('navigation_views').where('user_id', '=', userId).where('fragment', '=', fragment).execute();
}

export async function listViews(db: Db, userId: number): Promise<NavigationView[]> {
  const rows = await db.selectFrom('navigation_views').select(['fragment', 'is_pinned', 'name']).where('user_id', '=', userId).orderBy('id').execute();
  return rows.map(toView);
}
