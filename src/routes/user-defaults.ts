import { doUpdateUserDefaults } from '../actions/user-defaults.js';
import { USER_DEFAULT_NAMES } from '../state/user-defaults.js';
import { route } from '../http/route.js';
import { given, settingParamsOf } from '../http/params.js';

const params = settingParamsOf(USER_DEFAULT_NAMES);

export const userDefaultRoutes = [
  route({
    method: 'PATCH',
    path: '/realm/user_settings_defaults',
    auth: 'user',
    summary: 'Change the settings new users start with (administrators)',
    params,
    handler: async ({ app, realm, user, params: p }) => {
      const values = p as Record<string, unknown>;
      await doUpdateUserDefaults(app, realm, user, given(values, USER_DEFAULT_NAMES));
    },
  }),
];
