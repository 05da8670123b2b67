// Drafts (§2.5, §4.15, §4.16): stored only while the user synchronises drafts; every change is announced to
// the user's other clients.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { hasContentAccess } from '../permissions/channels.js';
import { userSettings } from '../state/user-settings.js';
import { SERVER_LIMITS } from '../state/realm-data.js';
import type { Tx } from '../store/db.js';
import { truncated } from '../format/quote.js';
import { countDrafts, deleteDraft, findDraft, insertDraft, listDrafts, updateDraft, type Draft } from '../store/drafts.js';
import type { Realm } from '../store/realms.js';
import { findStream } from '../store/streams.js';
import { findSubscription } from '../store/subscriptions.js';
import { findUsers, type User } from '../store/users.js';
import { viewerOf } from './channels.js';
import { checkRoom } from './per-user-limits.js';
import { inTransaction } from './transaction.js';

export interface DraftInput {
  type: string;
  to: number[];
  topic: string;
  content: string;
  timestamp?: number;
}

const NOT_FOUND = () => new ApiError('Draft does not exist', 'BAD_REQUEST', 404);

function checkSyncEnabled(user: User): void {
  if (!userSettings(user).enable_drafts_synchronization) throw new ApiError('User has disabled synchronizing drafts.');
}

// Content longer than a message is cut as the reference server cuts it (normalize_body).
async function checkDraft(tx: Tx, realm: Realm, user: User, input: DraftInput): Promise<Omit<Draft, 'id'>> {
  if (input.content.includes('\u0000')) throw new ApiError('Content must not contain null bytes');
  const d = { ...input, content: truncated(input.content, SERVER_LIMITS.max_message_length) };
  if (d.topic.includes('\u0000')) throw new ApiError('Topic must not contain null bytes');
  const timestamp = d.timestamp ?? Math.floor(Date.now() / 1000);
  if (d.type === 'stream') {
    if (d.to.length !== 1) throw new ApiError('Must specify exactly 1 channel ID for channel messages');
    const stream = await findStream(tx, realm.id, d.to[0]);
    const viewer = await viewerOf(tx, user);
    if (!stream || !hasContentAccess(viewer, stream, await findSubscription(tx, user.id, stream.id))) throw new ApiError('Invalid channel ID');
    return { type: 'stream', to: d.to, topic: [...d.topic].slice(0, SERVER_LIMITS.max_topic_length).join(''), content: d.content, timestamp };
  }
  if (d.type === 'private') {
    const found = new Set((await findUsers(tx, realm.id, d.to)).filter((u) => u.isActive).map((u) => u.id));
    const bad = d.to.find((id) => !found.has(id));
    if (bad !== undefined) throw new ApiError(`Invalid user ID ${bad}`);
    return { type: 'private', to: [...new Set(d.to)], topic: '', content: d.content, timestamp };
  }
  if (d.type !== '') throw new ApiError(`Invalid draft type: ${d.type}`);
  return { type: '', to: [], topic: '', content: d.content, timestamp };
}

export async function doCreateDrafts(app: App, realm: Realm, user: User, drafts: DraftInput[]): Promise<number[]> {
  checkSyncEnabled(user);
  return inTransaction(app, async (tx, emit) => {
    checkRoom(await countDrafts(tx, user.id), drafts.length, 'drafts');
    const created: Draft[] = [];
    for (const d of drafts) created.push(await insertDraft(tx, user.id, await checkDraft(tx, realm, user, d)));
    if (created.length) emit(realm.id, { type: 'drafts', op: 'add', drafts: created }, [user.id]);
    return created.map((d) => d.id);
  });
}

export async function doEditDraft(app: App, realm: Realm, user: User, id: number, draft: DraftInput): Promise<void> {
  checkSyncEnabled(user);
  await inTransaction(app, async (tx, emit) => {
    if (!(await findDraft(tx, user.id, id))) throw NOT_FOUND();
    const checked = await checkDraft(tx, realm, user, draft);
    await updateDraft(tx, id, checked);
    emit(realm.id, { type: 'drafts', op: 'update', draft: { id, ...checked } }, [user.id]);
  });
}

export async function doDeleteDraft(app: App, realm: Realm, user: User, id: number): Promise<void> {
  await inTransaction(app, async (tx, emit) => {
    if (!(await findDraft(tx, user.id, id))) throw NOT_FOUND();
    await deleteDraft(tx, id);
    emit(realm.id, { type: 'drafts', op: 'remove', draft_id: id }, [user.id]);
  });
}

export async function accessDrafts(app: App, user: User): Promise<Draft[]> {
  return listDrafts(app.db, user.id);
}
