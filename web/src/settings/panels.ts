// The overlay's panels, by their hash names (the reference's where it has them), and who sees each in the list.
// A panel shown to someone still offers only the controls they may use.
import { lazy, type ComponentType } from 'react';
import type { State } from '../data/state';
import { canDo } from '../data/org';

export interface Panel {
  id: string;
  label: string;
  visible(s: State): boolean;
  component: ComponentType;
  hiddenNote?: string; // shown to those who open its address without seeing it
}

const ADMINS_ONLY = 'Only organization administrators can see this page.';
const everyone = () => true;
const admins = (s: State) => s.me.isAdmin;
const notGuest = (s: State) => !s.me.isGuest;

// Each panel is a small chunk of its own, loaded when first opened.
export const PERSONAL: Panel[] = [
  { id: 'profile', label: 'Profile', visible: everyone, component: lazy(() => import('./personal/Profile')) },
  { id: 'account-and-privacy', label: 'Account and privacy', visible: everyone, component: lazy(() => import('./personal/Account')) },
  { id: 'preferences', label: 'Preferences', visible: everyone, component: lazy(() => import('./personal/Preferences')) },
  { id: 'notifications', label: 'Notifications', visible: everyone, component: lazy(() => import('./personal/Notifications')) },
  { id: 'alert-words', label: 'Alert words', visible: everyone, component: lazy(() => import('./personal/AlertWords')) },
  { id: 'muted-users', label: 'Muted users', visible: everyone, component: lazy(() => import('./personal/MutedUsers')) },
  { id: 'topics', label: 'Topics', visible: everyone, component: lazy(() => import('./personal/Topics')) },
  { id: 'your-bots', label: 'Bots', visible: notGuest, hiddenNote: 'Guests cannot see this page.', component: lazy(() => import('./personal/Bots')) },
  { id: 'uploaded-files', label: 'Uploaded files', visible: everyone, component: lazy(() => import('./personal/Uploads')) },
];

export const ORGANIZATION: Panel[] = [
  { id: 'organization-profile', label: 'Organization profile', visible: admins, hiddenNote: ADMINS_ONLY, component: lazy(() => import('./org/OrgProfile')) },
  { id: 'organization-permissions', label: 'Permissions', visible: admins, hiddenNote: ADMINS_ONLY, component: lazy(() => import('./org/Permissions')) },
  { id: 'users', label: 'Users', visible: everyone, component: lazy(() => import('./org/Users')) },
  { id: 'invitations', label: 'Invitations', visible: (s) => canDo(s, 'can_invite_users_group') || canDo(s, 'create_multiuse_invite_group') || s.me.isAdmin, component: lazy(() => import('./org/Invitations')) },
  { id: 'emoji-settings', label: 'Custom emoji', visible: everyone, component: lazy(() => import('./org/Emoji')) },
  { id: 'linkifier-settings', label: 'Linkifiers', visible: everyone, component: lazy(() => import('./org/Linkifiers')) },
  { id: 'playground-settings', label: 'Code playgrounds', visible: everyone, component: lazy(() => import('./org/Playgrounds')) },
  { id: 'default-channels-list', label: 'Default channels', visible: admins, hiddenNote: ADMINS_ONLY, component: lazy(() => import('./org/DefaultChannels')) },
  { id: 'profile-field-settings', label: 'Profile fields', visible: admins, hiddenNote: ADMINS_ONLY, component: lazy(() => import('./org/ProfileFields')) },
  { id: 'user-groups', label: 'Groups', visible: everyone, component: lazy(() => import('./org/Groups')) },
  { id: 'channels', label: 'Channels', visible: notGuest, hiddenNote: 'Guests cannot see this page.', component: lazy(() => import('./org/Channels')) },
  { id: 'channel-folders', label: 'Channel folders', visible: admins, hiddenNote: ADMINS_ONLY, component: lazy(() => import('./org/Folders')) },
];
