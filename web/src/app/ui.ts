// The app's own state (not the server's): where the person is, what is selected, the compose box, open
// overlays. It survives reconnections and re-registration, which replace only the server state.
import { narrowKey } from '../data/narrow';
import { Store } from '../data/store';
import { FEED, type Route } from '../router/hash';

export type ComposeTarget = { kind: 'stream'; streamId: number | null; topic: string } | { kind: 'dm'; userIds: number[] };

export interface ComposeState {
  open: boolean;
  target: ComposeTarget;
  text: string;
  draftId?: number; // the saved draft this text is (drafts API)
  editingId?: number; // the message being edited, when the box edits rather than sends
  preview: boolean;
  scheduling: boolean;
}

export interface MessageDialog {
  kind: 'move' | 'report' | 'delete';
  messageId: number;
}

export type Overlay =
  | null
  | { kind: 'help' }
  | { kind: 'emoji'; messageId?: number; forCompose?: boolean; anchor?: DOMRect }
  | { kind: 'lightbox'; src: string; title: string; href: string }
  | { kind: 'message-menu'; messageId: number; anchor: DOMRect }
  | { kind: 'channels' }
  | { kind: 'dialog'; messageId: number; dialog: MessageDialog['kind'] };

// The settings overlay, by its hash (#settings/<panel>, #organization/<panel>); the view stays behind it.
export interface SettingsRoute {
  section: 'settings' | 'organization';
  panel: string;
  detail?: string; // e.g. a group's or channel's id
}

export interface Ui {
  route: Route;
  settings: SettingsRoute | null;
  // The selected message of each view (by narrow key), so that going back finds the place.
  selected: Map<string, number>;
  compose: ComposeState;
  overlay: Overlay;
  searchOpen: boolean;
  searchText: string;
  leftOpen: boolean; // on narrow windows, the left sidebar as a drawer
  channelFilter: string;
  userFilter: string;
  expandedChannel: number | null;
  readingPausedIn: string | null; // the view where "mark as unread" paused reading as you scroll
}

export const ui = new Store<Ui>({
  route: FEED,
  settings: null,
  selected: new Map(),
  compose: { open: false, target: { kind: 'stream', streamId: null, topic: '' }, text: '', preview: false, scheduling: false },
  overlay: null,
  searchOpen: false,
  searchText: '',
  leftOpen: false,
  channelFilter: '',
  userFilter: '',
  expandedChannel: null,
  readingPausedIn: null,
});

export function setUi(change: Partial<Ui> | ((u: Ui) => Partial<Ui>)): void {
  ui.update((u) => ({ ...u, ...(typeof change === 'function' ? change(u) : change) }));
}

export function setCompose(change: Partial<ComposeState>): void {
  ui.update((u) => ({ ...u, compose: { ...u.compose, ...change } }));
}

export const routeKey = (r: Route) => (r.view === 'messages' ? narrowKey(r.terms) : r.view);

export function select(key: string, id: number): void {
  const u = ui.get();
  if (u.selected.get(key) === id) return;
  const selected = new Map(u.selected);
  selected.set(key, id);
  ui.set({ ...u, selected });
}
