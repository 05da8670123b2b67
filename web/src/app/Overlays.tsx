// Whatever floats above the app — one at a time: the keyboard help, the emoji picker, a message's menu, the image
// lightbox, the channel browser and message dialogs. Heavy ones load when first opened.
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useServer, useUi } from '../data/hooks';
import { toggleReaction } from '../data/actions';
import { insertAtCaret } from '../compose/open';
import { noteUsed } from '../emoji/data';
import { MessageMenu } from '../feed/MessageMenu';
import { setUi } from './ui';
import { ErrorBoundary } from './ErrorBoundary';

const HelpOverlay = lazy(() => import('../keyboard/HelpOverlay'));
const EmojiPicker = lazy(() => import('../emoji/EmojiPicker'));
const Lightbox = lazy(() => import('../feed/Lightbox'));
const ChannelBrowser = lazy(() => import('../sidebar/ChannelBrowser'));
const MessageDialog = lazy(() => import('../feed/MessageDialog'));

export const closeOverlay = () => setUi({ overlay: null });

// Focus goes back where it was when an overlay closes.
function useRestoreFocus(open: boolean): void {
  const before = useRef<Element | null>(null);
  useEffect(() => {
    if (open) before.current = document.activeElement;
    else if (before.current instanceof HTMLElement) {
      before.current.focus();
      before.current = null;
    }
  }, [open]);
}

export function Overlays() {
  const overlay = useUi((u) => u.overlay);
  const message = useServer((s) => (overlay && 'messageId' in overlay && overlay.messageId !== undefined ? s.messages.get(overlay.messageId) : undefined));
  useRestoreFocus(overlay !== null);
  if (!overlay) return null;
  let content = null;
  switch (overlay.kind) {
    case 'help':
      content = <HelpOverlay onClose={closeOverlay} />;
      break;
    case 'emoji':
      content = (
        <EmojiPicker
          anchor={overlay.anchor}
          onClose={closeOverlay}
          onPick={(e) => {
            noteUsed(e);
            closeOverlay();
            if (overlay.forCompose) insertAtCaret(`:${e.name}: `);
            else if (message) void toggleReaction(message, e);
          }}
        />
      );
      break;
    case 'lightbox':
      content = <Lightbox src={overlay.src} title={overlay.title} href={overlay.href} onClose={closeOverlay} />;
      break;
    case 'message-menu':
      content = message ? <MessageMenu message={message} anchor={overlay.anchor} onClose={closeOverlay} /> : null;
      break;
    case 'channels':
      content = <ChannelBrowser onClose={closeOverlay} />;
      break;
    case 'dialog':
      content = message ? <MessageDialog kind={overlay.dialog} message={message} onClose={closeOverlay} /> : null;
      break;
  }
  return <ErrorBoundary key={overlay.kind} label="dialog"><Suspense fallback={null}>{content}</Suspense></ErrorBoundary>;
}
