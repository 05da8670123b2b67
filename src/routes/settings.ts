import { Type } from '@sinclair/typebox';
import { doConfirmEmailChange, doUpdateSettings, SETTING_NAMES } from '../actions/settings.js';
import { given, json, settingParamsOf, str, type Params } from '../http/params.js';
import { route } from '../http/route.js';
import { problemPage } from '../format/pages.js';
import { ApiError } from '../lib/errors.js';
import { sendPage } from '../http/html.js';
import { LIMITS } from '../lib/limits.js';

// Booleans and integers arrive as JSON; string settings arrive raw.
const settingParams = settingParamsOf(SETTING_NAMES);

const params = {
  ...settingParams,
  full_name: str().optional(),
  email: str().optional(),
  old_password: str().optional(),
  new_password: str().optional(),
  target_users: json(
    Type.Object({
      user_ids: Type.Optional(Type.Array(Type.Integer())),
      group_ids: Type.Optional(Type.Array(Type.Integer(), { maxItems: LIMITS.settingsTargetGroupsPerRequest })),
      skip_if_already_edited: Type.Optional(Type.Boolean()),
    }),
  ).optional(),
};

function settingsRoute(path: string, summary: string) {
  return route({
    method: 'PATCH',
    path,
    auth: 'user',
    summary,
    params,
    handler: ({ app, realm, user, session, params: p }) => {
      const values = p as Params<typeof params> & Record<string, unknown>;
      const settings = given(values, SETTING_NAMES);
      return doUpdateSettings(app, realm, user, {
        settings,
        fullName: values.full_name,
        email: values.email,
        oldPassword: values.old_password,
        newPassword: values.new_password,
        targetUsers: values.target_users,
        keepSession: session?.tokenHash,
      });
    },
  });
}

export const settingsRoutes = [
  settingsRoute('/settings', "Change the caller's settings, or (administrators) those of other users"),
  settingsRoute('/settings/display', 'Deprecated alias of PATCH /settings'),
  settingsRoute('/settings/notifications', 'Deprecated alias of PATCH /settings'),
  route({
    method: 'GET',
    path: '/accounts/confirm_new_email/{key}',
    root: true,
    auth: 'none',
    summary: 'Completes an e-mail address change',
    params: { key: str() },
    handler: async ({ app, realm, params: p, req, reply }) => {
      // The link is opened from the mail, in a browser: it gets a page; API clients keep the JSON answer.
      const browser = /\btext\/html\b/.test(String(req.headers.accept ?? ''));
      try {
        const user = await doConfirmEmailChange(app, realm, p.key);
        if (browser) return sendPage(reply, 200, problemPage('E-mail address changed', `Your account's e-mail address is now ${user.deliveryEmail}.`));
        return { email: user.deliveryEmail };
      } catch (err) {
        if (!browser || !(err instanceof ApiError)) throw err;
        await sendPage(reply, err.status, problemPage('E-mail address not changed', err.message));
      }
    },
  }),
];
