// Drafts synchronised through the drafts API: the compose box's text is saved a moment after typing stops, and
// the newest draft of a conversation comes back when composing there again.
import { api } from '../api/client';
import type { Draft } from '../api/types';
import { server } from '../data/session';
import { setCompose, ui, type ComposeTarget } from '../app/ui';

let timer: ReturnType<typeof setTimeout> | undefined;
let saving: Promise<void> = Promise.resolve();

function draftOf(target: ComposeTarget, text: string): Omit<Draft, 'id'> | null {
  const timestamp = Math.floor(Date.now() / 1000);
  if (target.kind === 'stream') return target.streamId === null ? null : { type: 'stream', to: [target.streamId], topic: target.topic, content: text, timestamp };
  return target.userIds.length ? { type: 'private', to: target.userIds, topic: '', content: text, timestamp } : null;
}

export function draftMatches(d: Draft, target: ComposeTarget): boolean {
  if (target.kind === 'stream') return d.type === 'stream' && d.to[0] === target.streamId && d.topic.toLowerCase() === target.topic.toLowerCase();
  return d.type === 'private' && [...d.to].sort().join(',') === [...target.userIds].sort().join(',');
}

export function scheduleDraftSave(): void {
  clearTimeout(timer);
  timer = setTimeout(() => void saveDraftNow(), 1200);
}

export function saveDraftNow(): Promise<void> {
  clearTimeout(timer);
  saving = saving.then(save, save);
  return saving;
}

async function save(): Promise<void> {
  const s = server.get();
  const { compose } = ui.get();
  if (!s || s.settings.enable_drafts_synchronization === false) return;
  const text = compose.text;
  const draft = draftOf(compose.target, text);
  try {
    if (!text.trim() || !draft) {
      if (compose.draftId !== undefined && !text.trim()) {
        const id = compose.draftId;
        setCompose({ draftId: undefined });
        await api.call('DELETE /drafts/{draft_id}', {}, { draft_id: id }).catch(() => {});
      }
      return;
    }
    if (compose.draftId !== undefined && s.drafts.has(compose.draftId)) {
      await api.call('PATCH /drafts/{draft_id}', { draft }, { draft_id: compose.draftId });
    } else {
      const res: { ids: number[] } = await api.call('POST /drafts', { drafts: [draft] });
      // Sent (or emptied) while the draft was being made: it is not needed.
      if (!ui.get().compose.text.trim()) await api.call('DELETE /drafts/{draft_id}', {}, { draft_id: res.ids[0] }).catch(() => {});
      else if (ui.get().compose.draftId === undefined) setCompose({ draftId: res.ids[0] });
    }
  } catch {
    // Kept in the compose box; the next keystroke tries again.
  }
}

// The draft to restore when opening the compose box for this conversation.
export function latestDraft(target: ComposeTarget): Draft | undefined {
  const s = server.get();
  if (!s) return undefined;
  return [...s.drafts.values()].filter((d) => draftMatches(d, target)).sort((a, b) => b.timestamp - a.timestamp)[0];
}

export async function deleteDraft(id: number): Promise<void> {
  await api.call('DELETE /drafts/{draft_id}', {}, { draft_id: id }).catch(() => {});
}
