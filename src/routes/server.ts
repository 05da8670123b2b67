import { accessHealth } from '../actions/health.js';
import { route, type AnyRoute, openApiDocument } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';
import { FEATURE_LEVEL, PARLANCE_VERSION, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version.js';

const AUTH_METHODS = ['password', 'dev', 'email', 'ldap', 'remoteuser', 'github', 'azuread', 'gitlab', 'apple', 'google', 'saml', 'openid connect'];

export function serverRoutes(all: () => AnyRoute[]): AnyRoute[] {
  return [
    route({
      method: 'GET',
      path: '/server_settings',
      auth: 'none',
      summary: 'Server and organization settings needed before logging in',
      params: {},
      handler: ({ app, realm }) => {
        const password = realm.passwordAuthEnabled;
        return {
          authentication_methods: Object.fromEntries(AUTH_METHODS.map((m) => [m, password && (m === 'password' || m === 'email')])),
          external_authentication_methods: [],
          zulip_feature_level: FEATURE_LEVEL,
          zulip_version: ZULIP_VERSION,
          zulip_merge_base: ZULIP_MERGE_BASE,
          push_notifications_enabled: false,
          is_incompatible: false,
          email_auth_enabled: password,
          require_email_format_usernames: true,
          realm_url: organizationUrl(app, realm),
          realm_uri: organizationUrl(app, realm),
          realm_name: realm.name,
          realm_icon: '',
          realm_description: realm.description,
          realm_web_public_access_enabled: false,
        };
      },
    }),
    route({
      method: 'GET',
      path: '/health',
      root: true,
      auth: 'bare',
      summary: 'Liveness and database check',
      params: {},
      handler: async ({ app }) => {
        await accessHealth(app);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/openapi.json',
      auth: 'bare',
      summary: 'This API, described from the route declarations',
      params: {},
      handler: ({ reply }) => {
        void reply.send(openApiDocument(all(), PARLANCE_VERSION));
      },
    }),
  ];
}
