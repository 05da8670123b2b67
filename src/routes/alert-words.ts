import { Type } from '@sinclair/typebox';
import { accessAlertWords, doAddAlertWords, doRemoveAlertWords } from '../actions/alert-words.js';
import { json } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';

const words = { alert_words: json(Type.Array(Type.String()), { maxItems: LIMITS.alertWordsPerRequest }) };

export const alertWordRoutes = [
  route({
    method: 'GET', path: '/users/me/alert_words', auth: 'user', summary: "The caller's alert words", params: {},
    handler: async ({ app, user }) => ({ alert_words: await accessAlertWords(app, user) }),
  }),
  route({
    method: 'POST', path: '/users/me/alert_words', auth: 'user', summary: 'Add alert words (without regard to case)', params: words,
    handler: async ({ app, realm, user, params }) => ({ alert_words: await doAddAlertWords(app, realm, user, params.alert_words) }),
  }),
  route({
    method: 'DELETE', path: '/users/me/alert_words', auth: 'user', summary: 'Remove alert words (without regard to case)', params: words,
    handler: async ({ app, realm, user, params }) => ({ alert_words: await doRemoveAlertWords(app, realm, user, params.alert_words) }),
  }),
];
