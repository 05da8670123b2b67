// The tab's title and icon carry the unread count; direct messages and mentions make a desktop notification and a
// sound (the user's settings), when the app is not in front.
import type { Message } from '../api/types';
import { isMentioned } from '../data/events/messages';
import { messageDmIds } from '../data/narrow';
import { countsOf, conversationTitle } from '../data/selectors';
import { onEvents, server } from '../data/session';
import { hashOf, names } from '../app/router';
import { nearRoute } from '../compose/open';
import { ui } from '../app/ui';
import { viewTitle } from '../feed/ViewHeader';

let lastTitle = '';
let lastCount = -1;

function updateTitle(): void {
  const s = server.get();
  if (!s) return;
  const count = countsOf(s).total;
  const route = ui.get().route;
  const n = names();
  const view = route.view === 'messages'
    ? viewTitle(route.terms, (id) => n.channelName(id), (ids) => conversationTitle(s, ids), (id) => n.userName(id))
    : { inbox: 'Inbox', recent: 'Recent conversations', drafts: 'Drafts', scheduled: 'Scheduled messages' }[route.view];
  const title = `${count ? `(${count}) ` : ''}${view} - ${s.realm.name}`;
  if (title !== lastTitle) document.title = lastTitle = title;
  if (count !== lastCount) {
    lastCount = count;
    setFavicon(count);
  }
}

function setFavicon(count: number): void {
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  if (!count) {
    link.href = '/static/favicon.svg';
    return;
  }
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 32;
  const g = canvas.getContext('2d');
  if (!g) return;
  g.fillStyle = '#3461b8';
  g.beginPath();
  g.roundRect(0, 0, 32, 32, 7);
  g.fill();
  g.fillStyle = '#e5484d';
  g.beginPath();
  g.arc(22, 10, 10, 0, Math.PI * 2);
  g.fill();
  g.fillStyle = '#fff';
  g.font = 'bold 13px sans-serif';
  g.textAlign = 'center';
  g.textBaseline = 'middle';
  g.fillText(count > 99 ? '99' : String(count), 22, 11);
  link.href = canvas.toDataURL('image/png');
}

let audio: AudioContext | null = null;

function chime(): void {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // No audio here.
  }
}

function notifyMessages(messages: Message[]): void {
  const s = server.get()!;
  const away = document.hidden || !document.hasFocus();
  const worthy = messages.filter((m) => m.sender_id !== s.me.userId && !m.flags.includes('read') && (m.type === 'private' || isMentioned(m.flags)));
  if (!worthy.length || !away) return;
  if (s.settings.enable_sounds) chime();
  if (!s.settings.enable_desktop_notifications || typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  for (const m of worthy.slice(-3)) {
    const where = m.type === 'private' ? (messageDmIds(m, s.me.userId).length > 1 ? conversationTitle(s, messageDmIds(m, s.me.userId)) : 'Direct message') : `#${s.channels.get(m.stream_id!)?.name ?? ''} › ${m.subject}`;
    const text = new DOMParser().parseFromString(m.content, 'text/html').body.textContent ?? '';
    const body = m.type === 'private' && !s.settings.pm_content_in_desktop_notifications ? 'New direct message' : text.slice(0, 200);
    const n = new Notification(`${m.sender_full_name} (${where})`, { body, tag: String(m.id), icon: '/static/favicon.svg' });
    n.onclick = () => {
      window.focus();
      location.hash = hashOf(nearRoute(m));
      n.close();
    };
  }
}

export function requestNotificationPermission(): void {
  if (typeof Notification !== 'undefined' && Notification.permission === 'default') void Notification.requestPermission();
}

// At most a few times a second: under a flood of messages the count changes with every answer.
let titleTimer: ReturnType<typeof setTimeout> | undefined;
function scheduleTitle(): void {
  titleTimer ??= setTimeout(() => {
    titleTimer = undefined;
    updateTitle();
  }, 250);
}

export function startNotifications(): void {
  server.subscribe(scheduleTitle);
  ui.subscribe(scheduleTitle);
  updateTitle();
  onEvents((events, _before, after) => {
    const fresh = events.filter((e) => e.type === 'message').map((e) => after.messages.get((e.message as Message).id) ?? ({ ...(e.message as Message), flags: (e.flags as string[]) ?? [] }));
    if (fresh.length) notifyMessages(fresh);
  });
}
