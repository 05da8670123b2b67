// The address follows the view: every navigation is a hash change (so the browser's history and links work),
// and every hash change, from a link or the back button, sets the view.
import { formatHash, parseHash, type Names, type Resolver, type Route } from '../router/hash';
import { server } from '../data/session';
import { routeKey, setUi, ui, type SettingsRoute } from './ui';

function resolver(): Resolver {
  const s = server.get();
  return {
    channelIdByName: (name) => s?.channels && [...s.channels.values()].find((c) => c.name.toLowerCase() === name.toLowerCase())?.stream_id,
    userIdByEmail: (email) => s?.users && [...s.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase())?.user_id,
  };
}

export function names(): Names {
  const s = server.get();
  return {
    channelName: (id) => s?.channels.get(id)?.name,
    userName: (id) => s?.users.get(id)?.full_name,
  };
}

export const hashOf = (route: Route) => formatHash(route, names());

// #settings/profile, #organization/users/…, and the reference's own overlays for groups and channels.
export function parseSettingsHash(hash: string): SettingsRoute | null {
  const [head, panel, detail] = hash.replace(/^#/, '').split('/');
  if (head === 'settings' || head === 'organization') return { section: head, panel: panel || (head === 'settings' ? 'profile' : 'organization-profile'), detail };
  if (head === 'groups') return { section: 'organization', panel: 'user-groups', detail: /^\d+$/.test(panel ?? '') ? panel : detail };
  if (head === 'channels') return { section: 'organization', panel: 'channels', detail: /^\d+$/.test(panel ?? '') ? panel : detail };
  return null;
}

export const settingsHash = (r: SettingsRoute) => `#${r.section}/${r.panel}${r.detail ? `/${r.detail}` : ''}`;

function sync(): void {
  const settings = parseSettingsHash(location.hash);
  if (settings) return setUi({ settings, overlay: null });
  const route = parseHash(location.hash, resolver());
  // Leaving a view ends its pause in reading (feed/reading.ts).
  setUi((u) => ({ route, settings: null, leftOpen: false, searchOpen: false, readingPausedIn: u.readingPausedIn === routeKey(route) ? u.readingPausedIn : null }));
}

export function startRouter(): void {
  window.addEventListener('hashchange', sync);
  sync();
}

export function navigate(route: Route, opts: { replace?: boolean } = {}): void {
  const hash = hashOf(route);
  if (opts.replace) {
    history.replaceState(null, '', hash);
    sync();
  } else if (location.hash === hash) sync();
  else location.hash = hash;
}

export const currentRoute = () => ui.get().route;

export function openSettings(r: SettingsRoute): void {
  location.hash = settingsHash(r);
}

// Back to the view that was behind the overlay.
export function closeSettings(): void {
  history.pushState(null, '', hashOf(ui.get().route));
  setUi({ settings: null });
}
