// The layout: top bar, the views and conversations on the left, the current view with the compose box in the
// middle, people on the right; banners, overlays and a live region for screen readers.
import { lazy, Suspense } from 'react';
import { useUi } from '../data/hooks';
import { narrowKey } from '../data/narrow';
import { LeftSidebar } from '../sidebar/LeftSidebar';
import { RightSidebar } from '../sidebar/RightSidebar';
import { FeedView } from '../feed/FeedView';
import { Compose } from '../compose/Compose';
import { ConnectionBanner } from './ConnectionBanner';
import { TopBar } from './TopBar';
import { Overlays } from './Overlays';
import { LiveRegion } from './LiveRegion';
import { setUi } from './ui';
import { ErrorBoundary } from './ErrorBoundary';
import '../styles/base.css';

const Inbox = lazy(() => import('../views/Inbox'));
const Recent = lazy(() => import('../views/Recent'));
const Drafts = lazy(() => import('../views/Drafts'));
const Scheduled = lazy(() => import('../views/Scheduled'));
// The settings overlay is a chunk of its own, loaded when first opened.
const SettingsOverlay = lazy(() => import('../settings/SettingsOverlay'));

function Settings() {
  const open = useUi((u) => u.settings !== null);
  if (!open) return null;
  return <ErrorBoundary label="settings"><Suspense fallback={<div className="modal-backdrop"><div className="modal">Loading settings…</div></div>}><SettingsOverlay /></Suspense></ErrorBoundary>;
}

function Middle() {
  const route = useUi((u) => u.route);
  let view;
  // A view of its own for each narrow: its scroll position and selection start from what was kept for it.
  if (route.view === 'messages') {
    const key = narrowKey(route.terms);
    view = <ErrorBoundary key={key} label="messages"><FeedView terms={route.terms} near={route.near} /></ErrorBoundary>;
  }
  else {
    const View = { inbox: Inbox, recent: Recent, drafts: Drafts, scheduled: Scheduled }[route.view];
    view = <ErrorBoundary key={route.view} label="view"><Suspense fallback={<div className="empty-state">Loading…</div>}><View /></Suspense></ErrorBoundary>;
  }
  return (
    <main className="middle" id="main" aria-labelledby="view-title" tabIndex={-1}>
      {view}
      <Compose />
    </main>
  );
}

export function App() {
  const leftOpen = useUi((u) => u.leftOpen);
  return (
    <div className="app">
      <a className="skip-link" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>Skip to messages</a>
      <TopBar />
      <ConnectionBanner />
      <div className="columns">
        <LeftSidebar />
        {leftOpen && <div className="drawer-backdrop" onClick={() => setUi({ leftOpen: false })} />}
        <Middle />
        <RightSidebar />
      </div>
      <Overlays />
      <Settings />
      <LiveRegion />
    </div>
  );
}
