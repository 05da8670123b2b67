// The bar across the top: the organization, search, and the personal menu (theme, keyboard shortcuts, log out).
import { useState } from 'react';
import { csrfToken } from '../api/client';
import { updateSetting } from '../data/actions';
import { useServer } from '../data/hooks';
import { SearchBox } from '../search/SearchBox';
import { setUi } from './ui';
import { openSettings } from './router';
import { Icon } from './icons';
import { Avatar } from './Avatar';
import { requestNotificationPermission } from '../notifications/notify';

export function logOut(): void {
  // A form post, so that the server's redirect takes the browser to the login page.
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/accounts/logout/';
  const token = document.createElement('input');
  token.type = 'hidden';
  token.name = 'csrfmiddlewaretoken';
  token.value = csrfToken();
  form.append(token);
  document.body.append(form);
  form.submit();
}

export function TopBar() {
  const realmName = useServer((s) => s.realm.name);
  const me = useServer((s) => s.me);
  const scheme = useServer((s) => s.settings.color_scheme);
  const isAdmin = useServer((s) => s.me.isAdmin);
  const [menu, setMenu] = useState(false);
  const [gear, setGear] = useState(false);
  const close = () => setMenu(false);
  return (
    <header className="top-bar" role="banner">
      <button type="button" className="icon-button menu-toggle" aria-label="Show channels and conversations" onClick={() => setUi((u) => ({ leftOpen: !u.leftOpen }))}><Icon name="menu" size={18} /></button>
      <a className="org" href="#inbox" title={realmName}>
        <img src="/static/favicon.svg" alt="" />
        <span className="org-name">{realmName}</span>
      </a>
      <SearchBox />
      <div className="gear">
        <button type="button" className="icon-button gear-button" aria-haspopup="menu" aria-expanded={gear} aria-label="Settings" title="Settings" onClick={() => setGear(!gear)}><Icon name="gear" size={18} /></button>
        {gear && (
          <div className="popover menu gear-menu" role="menu" onKeyDown={(e) => e.key === 'Escape' && setGear(false)}>
            <button role="menuitem" type="button" onClick={() => { setGear(false); openSettings({ section: 'settings', panel: 'profile' }); }}>Personal settings</button>
            <button role="menuitem" type="button" onClick={() => { setGear(false); openSettings({ section: 'organization', panel: isAdmin ? 'organization-profile' : 'users' }); }}>Organization settings</button>
            <button role="menuitem" type="button" onClick={() => { setGear(false); openSettings({ section: 'organization', panel: 'user-groups' }); }}>Groups</button>
            <button role="menuitem" type="button" onClick={() => { setGear(false); openSettings({ section: 'organization', panel: 'channels' }); }}>Channel settings</button>
          </div>
        )}
      </div>
      <div className="personal">
        <button type="button" className="icon-button personal-button" aria-haspopup="menu" aria-expanded={menu} onClick={() => setMenu(!menu)} title={me.email} aria-label={`${me.fullName}: menu`}>
          <Avatar userId={me.userId} size={24} /> <span className="my-name">{me.fullName}</span> ▾
        </button>
        {menu && (
          <div className="popover menu personal-menu" role="menu" onKeyDown={(e) => e.key === 'Escape' && close()}>
            <button role="menuitem" type="button" onClick={() => { close(); void updateSetting('color_scheme', scheme === 2 ? 3 : 2); }}>
              {document.documentElement.dataset.theme === 'dark' ? 'Light theme' : 'Dark theme'}
            </button>
            <button role="menuitem" type="button" onClick={() => { close(); void updateSetting('color_scheme', 1); }}>Theme of the system</button>
            <button role="menuitem" type="button" onClick={() => { close(); openSettings({ section: 'settings', panel: 'profile' }); }}>Personal settings</button>
            <button role="menuitem" type="button" onClick={() => { close(); setUi({ overlay: { kind: 'help' } }); }}>Keyboard shortcuts <span className="key">?</span></button>
            {typeof Notification !== 'undefined' && Notification.permission === 'default' && (
              <button role="menuitem" type="button" onClick={() => { close(); requestNotificationPermission(); }}>Enable desktop notifications</button>
            )}
            <hr />
            <button role="menuitem" type="button" onClick={logOut}>Log out</button>
          </div>
        )}
      </div>
    </header>
  );
}
