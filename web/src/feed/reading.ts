// "Mark as unread from here": the messages from the selected one on become unread, and reading as you scroll
// pauses in this view (else they would be read again at once), until the person leaves it.
import { markUnreadFrom } from '../data/actions';
import { setUi, ui, routeKey } from '../app/ui';

export function markUnreadHere(messageId: number): void {
  const route = ui.get().route;
  if (route.view !== 'messages') return;
  setUi({ readingPausedIn: routeKey(route) });
  void markUnreadFrom(route.terms, messageId);
}

export const readingPaused = (key: string) => ui.get().readingPausedIn === key;
