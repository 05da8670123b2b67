import { accessRealmDomains, doAddRealmDomain, doChangeRealmDomain, doRemoveRealmDomain } from '../actions/realm-domains.js';
import { bool, str } from '../http/params.js';
import { route } from '../http/route.js';

export const realmDomainRoutes = [
  route({
    method: 'GET', path: '/realm/domains', auth: 'user', summary: "The e-mail domains the organization accepts for new users", params: {},
    handler: async ({ app, realm }) => ({ domains: await accessRealmDomains(app, realm) }),
  }),
  route({
    method: 'POST', path: '/realm/domains', auth: 'user', summary: 'Add an allowed e-mail domain (owners)',
    params: { domain: str(), allow_subdomains: bool().default(false) },
    handler: async ({ app, realm, user, params }) => {
      return { new_domain: await doAddRealmDomain(app, realm, user, params.domain, params.allow_subdomains) };
    },
  }),
  route({
    method: 'PATCH', path: '/realm/domains/{domain}', auth: 'user', summary: 'Allow or refuse subdomains of a domain (owners)',
    params: { domain: str(), allow_subdomains: bool() },
    handler: async ({ app, realm, user, params }) => {
      await doChangeRealmDomain(app, realm, user, params.domain, params.allow_subdomains);
    },
  }),
  route({
    method: 'DELETE', path: '/realm/domains/{domain}', auth: 'user', summary: 'Remove an allowed e-mail domain (owners)',
    params: { domain: str() },
    handler: async ({ app, realm, user, params }) => {
      await doRemoveRealmDomain(app, realm, user, params.domain);
    },
  }),
];
