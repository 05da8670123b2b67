import type { App } from '../app.js';
import { nowSeconds } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { createSystemGroups } from '../store/groups.js';
import { countRealms, findRealmBySubdomain, insertRealm, type Realm } from '../store/realms.js';
import { isUniqueViolation } from '../store/tx.js';
import { inTransaction } from './transaction.js';
import { ROLE, type User } from '../store/users.js';
import { checkRealmName, checkSubdomain } from './checks.js';
import { insertUserInTx, prepareUser, realmFakeEmailDomain } from './users.js';

export interface CreateRealmInput {
  name: string;
  subdomain: string;
  owner: { email: string; fullName: string; password: string };
}

// An organization is born with its system groups and its first owner, in one transaction.
export async function doCreateRealm(app: App, input: CreateRealmInput): Promise<{ realm: Realm; owner: User }> {
  const name = checkRealmName(input.name);
  const subdomain = checkSubdomain(input.subdomain);
  const owner = await prepareUser(app, { ...input.owner, role: ROLE.owner });
  try {
    return await inTransaction(app, async (tx, emit) => {
      if (await findRealmBySubdomain(tx, subdomain)) throw new ApiError(`Subdomain '${subdomain}' is already in use`);
      const now = nowSeconds();
      const realm = await insertRealm(tx, { stringId: subdomain, name, now });
      await createSystemGroups(tx, realm.id, now);
      return { realm, owner: await insertUserInTx(tx, emit, realm, owner, realmFakeEmailDomain(app, realm)) };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError(`Subdomain '${subdomain}' is already in use`);
    throw err;
  }
}

export async function accessRealmBySubdomain(app: App, subdomain: string): Promise<Realm> {
  const realm = await findRealmBySubdomain(app.db, subdomain.trim().toLowerCase());
  if (!realm) throw new ApiError(`No organization with subdomain '${subdomain}'`);
  return realm;
}

export async function hasAnyRealm(app: App): Promise<boolean> {
  return (await countRealms(app.db)) > 0;
}

export class OrganizationExistsError extends ApiError {
  constructor() {
    super('This server already has an organization.', 'BAD_REQUEST', 403);
  }
}

// First start in the browser: the server's first organization (at its own address, no subdomain) and its owner,
// only while there is none; two attempts at once make one, the other fails.
export async function doCreateFirstRealm(app: App, input: Omit<CreateRealmInput, 'subdomain'>): Promise<{ realm: Realm; owner: User }> {
  if (await hasAnyRealm(app)) throw new OrganizationExistsError();
  try {
    return await doCreateRealm(app, { ...input, subdomain: '' });
  } catch (err) {
    if (err instanceof ApiError && (await hasAnyRealm(app))) throw new OrganizationExistsError();
    throw err;
  }
}
