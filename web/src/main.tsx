// The app's start: register (the snapshot and the event queue), then render; the router, theme, keyboard,
// notifications and presence start once the state is there. No session: the login page, which brings the person
// back to the view they were opening.
import { createRoot } from 'react-dom/client';
import { api, ApiError } from './api/client';
import { start } from './data/session';
import { prefetchMessages } from './data/fetch';
import { parseHash } from './router/hash';
import { startPresence } from './data/presence';
import { startRouter } from './app/router';
import { startTheme } from './app/theme';
import { App } from './app/App';
import { installShortcuts } from './keyboard/shortcuts';
import { installContentEvents } from './feed/contentEvents';
import { startNotifications } from './notifications/notify';
import './styles/base.css';

const root = createRoot(document.getElementById('root')!);

const toLogin = () => location.replace(`/login/${location.hash}`);
api.onUnauthorized = toLogin;

function failed(message: string): void {
  root.render(
    <div className="empty-state" role="alert">
      <h2>Parlance could not start</h2>
      <p>{message}</p>
      <p><button type="button" className="button primary" onClick={() => location.reload()}>Try again</button></p>
    </div>,
  );
}

startTheme();
// The first view's messages are asked for while the app registers.
const first = parseHash(location.hash);
if (first.view === 'messages' && first.terms.every((t) => typeof t.operand !== 'string' || !['channel', 'sender', 'dm'].includes(t.operator))) prefetchMessages(first.terms, first.near);
start().then(
  () => {
    startRouter();
    installShortcuts();
    installContentEvents();
    startNotifications();
    startPresence();
    root.render(<App />);
  },
  (err: unknown) => {
    if (err instanceof ApiError && err.status === 401) return toLogin();
    failed(err instanceof Error ? err.message : String(err));
  },
);
