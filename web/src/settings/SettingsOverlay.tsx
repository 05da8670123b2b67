// The settings overlay: personal settings and the organization's, one panel at a time, chosen by the hash
// (#settings/<panel>, #organization/<panel>). It floats over the view, which stays as it was behind it.
import { Suspense, useEffect, useRef, type KeyboardEvent } from 'react';
import { useServer, useUi } from '../data/hooks';
import { closeSettings, settingsHash } from '../app/router';
import { Icon } from '../app/icons';
import { ErrorBoundary } from '../app/ErrorBoundary';
import { ORGANIZATION, PERSONAL } from './panels';
import './settings.css';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])';

// Tab and Shift+Tab stay inside the overlay (it is modal).
function keepFocusInside(e: KeyboardEvent<HTMLDivElement>): void {
  if (e.key !== 'Tab') return;
  const all = [...e.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.offsetParent !== null);
  if (!all.length) return;
  const [first, last] = [all[0], all[all.length - 1]];
  if (e.shiftKey && (document.activeElement === first || document.activeElement === e.currentTarget)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

export default function SettingsOverlay() {
  const route = useUi((u) => u.settings)!;
  const s = useServer((st) => st);
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    dialog.current?.focus();
  }, []);
  // On a narrow window the sections are a scrolling row: keep the current one in sight.
  // (Braces: Chromium's scrollIntoView returns a promise, which React would take for a clean-up function.)
  useEffect(() => {
    dialog.current?.querySelector('.settings-nav [aria-current="page"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [route.section, route.panel]);
  const panels = (route.section === 'settings' ? PERSONAL : ORGANIZATION).filter((p) => p.visible(s));
  const panel = panels.find((p) => p.id === route.panel);
  const all = route.section === 'settings' ? PERSONAL : ORGANIZATION;
  const hidden = panel ? undefined : all.find((p) => p.id === route.panel);
  const Panel = panel?.component;
  return (
    <div className="settings-backdrop" onMouseDown={(e) => e.target === e.currentTarget && closeSettings()}>
      <div className="settings-overlay" role="dialog" aria-modal="true" aria-labelledby="settings-title" tabIndex={-1} ref={dialog}
        onKeyDown={(e) => { keepFocusInside(e); if (e.key === 'Escape' && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement)) { e.stopPropagation(); closeSettings(); } }}>
        <header className="settings-header">
          <nav className="settings-tabs" aria-label="Settings">
            <a href="#settings/profile" aria-current={route.section === 'settings' ? 'page' : undefined}>Personal</a>
            <a href={`#organization/${s.me.isAdmin ? 'organization-profile' : 'users'}`} aria-current={route.section === 'organization' ? 'page' : undefined}>Organization</a>
          </nav>
          <h1 id="settings-title" className="sr-only">{route.section === 'settings' ? 'Personal settings' : 'Organization settings'}</h1>
          <button type="button" className="icon-button" aria-label="Close settings" onClick={closeSettings}><Icon name="close" size={18} /></button>
        </header>
        <div className="settings-body">
          <nav className="settings-nav" aria-label={route.section === 'settings' ? 'Personal settings' : 'Organization settings'}>
            {panels.map((p) => (
              <a key={p.id} href={settingsHash({ section: route.section, panel: p.id })} aria-current={p.id === route.panel ? 'page' : undefined}>{p.label}</a>
            ))}
          </nav>
          <main className="settings-panel" aria-labelledby="settings-panel-title">
            <h2 id="settings-panel-title">{panel?.label ?? 'Settings'}</h2>
            {Panel ? (
              <ErrorBoundary key={panel.id} label="settings panel"><Suspense fallback={<p className="detail">Loading…</p>}><Panel /></Suspense></ErrorBoundary>
            ) : (
              <p className="detail" role="alert">{hidden ? (hidden.hiddenNote ?? 'You cannot see this page.') : 'There is no such settings page.'}</p>
            )}
          </main>
        </div>
      </div>
    </div>
  );
}
