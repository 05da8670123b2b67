import { Type } from '@sinclair/typebox';
import {
  accessLegacyLinkifiers, accessLinkifiers, doAddLinkifier, doRemoveLinkifier, doReorderLinkifiers, doUpdateLinkifier,
} from '../actions/linkifiers.js';
import { int, json, str } from '../http/params.js';
import { route, type AnyRoute } from '../http/route.js';

const definition = { pattern: str(), url_template: str() };

// The reference server adds at /realm/filters and edits at /realm/filters/{id}; the same operations are also
// reachable under /realm/linkifiers, where listing and reordering live.
function writeRoutes(base: string): AnyRoute[] {
  return [
    route({
      method: 'POST',
      path: base,
      auth: 'user',
      summary: 'Add a linkifier (administrators)',
      params: definition,
      handler: async ({ app, realm, user, params }) => ({ id: await doAddLinkifier(app, realm, user, params.pattern, params.url_template) }),
    }),
    route({
      method: 'PATCH',
      path: `${base}/{filter_id}`,
      auth: 'user',
      summary: 'Change a linkifier (administrators)',
      params: { filter_id: int(), ...definition },
      handler: async ({ app, realm, user, params }) => {
        await doUpdateLinkifier(app, realm, user, params.filter_id, params.pattern, params.url_template);
      },
    }),
    route({
      method: 'DELETE',
      path: `${base}/{filter_id}`,
      auth: 'user',
      summary: 'Remove a linkifier (administrators)',
      params: { filter_id: int() },
      handler: async ({ app, realm, user, params }) => {
        await doRemoveLinkifier(app, realm, user, params.filter_id);
      },
    }),
  ];
}

export const linkifierRoutes = [
  route({
    method: 'GET',
    path: '/realm/linkifiers',
    auth: 'user',
    summary: "The organization's linkifiers, in the order they apply",
    params: {},
    handler: async ({ app, realm }) => ({ linkifiers: await accessLinkifiers(app.db, realm) }),
  }),
  route({
    method: 'PATCH',
    path: '/realm/linkifiers',
    auth: 'user',
    summary: 'Reorder all linkifiers (administrators)',
    params: { ordered_linkifier_ids: json(Type.Array(Type.Integer())) },
    handler: async ({ app, realm, user, params }) => {
      await doReorderLinkifiers(app, realm, user, params.ordered_linkifier_ids);
    },
  }),
  route({
    method: 'GET',
    path: '/realm/filters',
    auth: 'user',
    summary: 'The linkifiers in the legacy form [pattern, URL format, id]',
    params: {},
    handler: async ({ app, realm }) => ({ filters: await accessLegacyLinkifiers(app.db, realm) }),
  }),
  ...writeRoutes('/realm/filters'),
  ...writeRoutes('/realm/linkifiers'),
];
