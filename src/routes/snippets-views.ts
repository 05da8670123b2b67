import { Type } from '@sinclair/typebox';
import {
  accessSnippets, accessViews, doAddView, doCreateSnippet, doDeleteSnippet, doEditSnippet, doEditView, doRemoveView,
} from '../actions/snippets-views.js';
import { bool, int, json, str } from '../http/params.js';
import { route } from '../http/route.js';

const nullableName = json(Type.Union([Type.String(), Type.Null()]), { raw: true }).optional();

export const snippetAndViewRoutes = [
  route({
    method: 'GET', path: '/saved_snippets', auth: 'user', summary: "The caller's saved snippets", params: {},
    handler: async ({ app, user }) => ({ saved_snippets: await accessSnippets(app, user) }),
  }),
  route({
    method: 'POST', path: '/saved_snippets', auth: 'user', summary: 'Save a snippet', params: { title: str(), content: str() },
    handler: async ({ app, realm, user, params }) => ({ saved_snippet_id: await doCreateSnippet(app, realm, user, params.title, params.content) }),
  }),
  route({
    method: 'PATCH', path: '/saved_snippets/{saved_snippet_id}', auth: 'user', summary: 'Edit a saved snippet',
    params: { saved_snippet_id: int(), title: str().optional(), content: str().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doEditSnippet(app, realm, user, params.saved_snippet_id, { title: params.title, content: params.content });
    },
  }),
  route({
    method: 'DELETE', path: '/saved_snippets/{saved_snippet_id}', auth: 'user', summary: 'Delete a saved snippet', params: { saved_snippet_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteSnippet(app, realm, user, params.saved_snippet_id);
    },
  }),
  route({
    method: 'GET', path: '/navigation_views', auth: 'user', summary: "The caller's navigation views", params: {},
    handler: async ({ app, user }) => ({ navigation_views: await accessViews(app, user) }),
  }),
  route({
    method: 'POST', path: '/navigation_views', auth: 'user', summary: 'Add a navigation view',
    params: { fragment: str(), is_pinned: bool(), name: nullableName },
    handler: async ({ app, realm, user, params }) => {
      await doAddView(app, realm, user, params.fragment, params.is_pinned, params.name as string | null | undefined);
    },
  }),
  route({
    method: 'PATCH', path: '/navigation_views/{fragment*}', auth: 'user', summary: 'Change a navigation view',
    params: { fragment: str(), is_pinned: bool().optional(), name: nullableName },
    handler: async ({ app, realm, user, params }) => {
      await doEditView(app, realm, user, params.fragment, { is_pinned: params.is_pinned, name: params.name as string | null | undefined });
    },
  }),
  route({
    method: 'DELETE', path: '/navigation_views/{fragment*}', auth: 'user', summary: 'Remove a navigation view', params: { fragment: str() },
    handler: async ({ app, realm, user, params }) => {
      await doRemoveView(app, realm, user, params.fragment);
    },
  }),
];
