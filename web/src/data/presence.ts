// This person's presence: a ping every server_presence_ping_interval_seconds, "active" while they used the app
// in the last few minutes with the window in front, else "idle". The answer carries everyone's presence.
import { api } from '../api/client';
import type { PresenceInfo } from '../api/types';
import { produce } from './reduce';
import { server } from './session';

const ACTIVE_MS = 5 * 60_000;
let lastInput = Date.now();
let newInput = true;
let lastUpdateId = -1;
let timer: ReturnType<typeof setTimeout> | undefined;

async function ping(): Promise<void> {
  const s = server.get();
  if (!s) return;
  const active = document.hasFocus() && Date.now() - lastInput < ACTIVE_MS;
  try {
    const res: { presences?: Record<string, PresenceInfo>; presence_last_update_id?: number; server_timestamp?: number } = await api.call('POST /users/me/presence', {
      status: active ? 'active' : 'idle', ping_only: false, new_user_input: newInput, slim_presence: true, last_update_id: lastUpdateId,
    });
    newInput = false;
    if (res.presence_last_update_id !== undefined) lastUpdateId = res.presence_last_update_id;
    if (res.presences) {
      server.update((st) => st && produce(st, (d) => {
        const map = d.mut('presence');
        for (const [id, p] of Object.entries(res.presences!)) map.set(Number(id), p);
      }));
    }
  } catch {
    // The next ping tries again; the event loop shows the connection's state.
  }
}

export function startPresence(): void {
  const mark = () => {
    if (Date.now() - lastInput > 60_000) newInput = true;
    lastInput = Date.now();
  };
  for (const type of ['keydown', 'mousedown', 'touchstart', 'focus']) window.addEventListener(type, mark, { passive: true, capture: true });
  const loop = async () => {
    await ping();
    timer = setTimeout(loop, (server.get()?.realm.pingIntervalSeconds ?? 60) * 1000);
  };
  void loop();
}

export function stopPresence(): void {
  clearTimeout(timer);
}
