// Typing notices sent while composing: "start" on the first keystroke and again every
// server_typing_started_wait_period while typing goes on, "stop" after server_typing_stopped_wait_period without
// a keystroke, on sending, or on leaving the conversation.
import { api } from '../api/client';
import { server } from '../data/session';
import type { ComposeTarget } from '../app/ui';

let current: { key: string; params: Record<string, unknown> } | null = null;
let lastStart = 0;
let stopTimer: ReturnType<typeof setTimeout> | undefined;

function paramsOf(t: ComposeTarget): Record<string, unknown> | null {
  if (t.kind === 'stream') return t.streamId !== null && t.topic.trim() ? { type: 'stream', stream_id: t.streamId, topic: t.topic.trim() } : null;
  return t.userIds.length ? { type: 'direct', to: t.userIds } : null;
}

export function typingActivity(target: ComposeTarget): void {
  const s = server.get();
  if (!s) return;
  const allowed = target.kind === 'stream' ? s.settings.send_stream_typing_notifications : s.settings.send_private_typing_notifications;
  const params = allowed === false ? null : paramsOf(target);
  if (!params) return stopTyping();
  const key = JSON.stringify(params);
  if (current && current.key !== key) stopTyping();
  const now = Date.now();
  if (!current || now - lastStart > s.realm.typingStartedWaitMs) {
    lastStart = now;
    void api.call('POST /typing', { op: 'start', ...params }).catch(() => {});
  }
  current = { key, params };
  clearTimeout(stopTimer);
  stopTimer = setTimeout(stopTyping, s.realm.typingStoppedWaitMs);
}

export function stopTyping(): void {
  clearTimeout(stopTimer);
  if (!current) return;
  const { params } = current;
  current = null;
  void api.call('POST /typing', { op: 'stop', ...params }).catch(() => {});
}
