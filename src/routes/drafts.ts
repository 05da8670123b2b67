import { Type } from '@sinclair/typebox';
import { accessDrafts, doCreateDrafts, doDeleteDraft, doEditDraft } from '../actions/drafts.js';
import { int, json } from '../http/params.js';
import { route } from '../http/route.js';
import { LIMITS } from '../lib/limits.js';

const Draft = Type.Object({
  type: Type.String(),
  to: Type.Array(Type.Integer()),
  topic: Type.String(),
  content: Type.String(),
  timestamp: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const draftRoutes = [
  route({
    method: 'GET',
    path: '/drafts',
    auth: 'user',
    summary: "The caller's drafts",
    params: {},
    handler: async ({ app, user }) => {
      const drafts = await accessDrafts(app, user);
      return { count: drafts.length, drafts };
    },
  }),
  route({
    method: 'POST',
    path: '/drafts',
    auth: 'user',
    summary: 'Create drafts',
    params: { drafts: json(Type.Array(Draft), { maxItems: LIMITS.draftsPerRequest }).default([]) },
    handler: async ({ app, realm, user, params }) => ({ ids: await doCreateDrafts(app, realm, user, params.drafts) }),
  }),
  route({
    method: 'PATCH',
    path: '/drafts/{draft_id}',
    auth: 'user',
    summary: 'Edit a draft',
    params: { draft_id: int(), draft: json(Draft) },
    handler: async ({ app, realm, user, params }) => {
      await doEditDraft(app, realm, user, params.draft_id, params.draft);
    },
  }),
  route({
    method: 'DELETE',
    path: '/drafts/{draft_id}',
    auth: 'user',
    summary: 'Delete a draft',
    params: { draft_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteDraft(app, realm, user, params.draft_id);
    },
  }),
];
