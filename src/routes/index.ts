import type { AnyRoute } from '../http/route.js';
import { authRoutes } from './auth.js';
import { serverRoutes } from './server.js';
import { userRoutes } from './users.js';
import { registerRoutes } from './register.js';
import { eventRoutes } from './events.js';
import { subscriptionRoutes } from './subscriptions.js';
import { streamRoutes } from './streams.js';
import { messageRoutes } from './messages.js';
import { settingsRoutes } from './settings.js';
import { presenceRoutes } from './presence.js';
import { draftRoutes } from './drafts.js';
import { snippetAndViewRoutes } from './snippets-views.js';
import { userGroupRoutes } from './user-groups.js';

// One entry per API area; add new areas at the end.
export function allRoutes(): AnyRoute[] {
  const routes: AnyRoute[] = [];
  routes.push(
    ...serverRoutes(() => routes),
    ...authRoutes,
    ...userRoutes,
    ...registerRoutes,
    ...eventRoutes,
    ...subscriptionRoutes,
    ...streamRoutes,
    ...messageRoutes,
    ...settingsRoutes,
    ...presenceRoutes,
    ...draftRoutes,
    ...snippetAndViewRoutes,
    ...userGroupRoutes,
  );
  return routes;
}
