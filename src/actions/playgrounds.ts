// Code playgrounds (POST /realm/playgrounds, DELETE /realm/playgrounds/{id}): where a code block of a language
// can be opened, by a URL template with one variable, `code`. Administrators manage them; everyone is told.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import { UriTemplate } from '../lib/uri-template.js';
import type { Tx } from '../store/db.js';
import { deletePlayground, insertPlayground, listPlaygrounds, type Playground } from '../store/playgrounds.js';
import type { Realm } from '../store/realms.js';
import { isUniqueViolation } from '../store/tx.js';
import type { User } from '../store/users.js';
import { inTransaction, type Emit } from './transaction.js';
import { checkAdministrator } from './users.js';

// The reference's column sizes and its check of a Pygments language name.
const MAX_NAME = 64;
const MAX_LANGUAGE = 40;
const MAX_TEMPLATE = 1024;
const LANGUAGE = /^[ a-zA-Z0-9_+\-./#]*$/;

async function notify(tx: Tx, emit: Emit, realm: Realm): Promise<void> {
  emit(realm.id, { type: 'realm_playgrounds', realm_playgrounds: await listPlaygrounds(tx, realm.id) }, null);
}

function checkPlayground(p: Omit<Playground, 'id'>): void {
  if (!p.name) throw new ApiError('Name cannot be blank.');
  if ([...p.name].length > MAX_NAME) throw new ApiError(`name is too long (limit: ${MAX_NAME} characters)`);
  if (!p.pygments_language) throw new ApiError('Pygments language cannot be blank.');
  if ([...p.pygments_language].length > MAX_LANGUAGE) throw new ApiError(`pygments_language is too long (limit: ${MAX_LANGUAGE} characters)`);
  if (!LANGUAGE.test(p.pygments_language)) throw new ApiError('Invalid characters in pygments language');
  if ([...p.url_template].length > MAX_TEMPLATE) throw new ApiError(`url_template is too long (limit: ${MAX_TEMPLATE} characters)`);
  const template = UriTemplate.parse(p.url_template);
  if (!template || !/^https?:\/\//i.test(p.url_template)) throw new ApiError('Invalid URL template.');
  const names = template.variableNames;
  if (!names.has('code')) throw new ApiError('Missing the required variable "code" in the URL template');
  if (names.size !== 1) throw new ApiError('"code" should be the only variable present in the URL template');
}

export async function doAddPlayground(app: App, realm: Realm, user: User, input: Omit<Playground, 'id'>): Promise<{ id: number }> {
  checkAdministrator(user);
  const p = { name: input.name.trim(), pygments_language: input.pygments_language.trim(), url_template: input.url_template.trim() };
  checkPlayground(p);
  const exists = () => new ApiError('Realm playground with this Realm, Pygments language and Name already exists.');
  return inTransaction(app, async (tx, emit) => {
    if ((await listPlaygrounds(tx, realm.id)).some((q) => q.name === p.name && q.pygments_language === p.pygments_language)) throw exists();
    const id = await insertPlayground(tx, realm.id, p);
    await notify(tx, emit, realm);
    return { id };
  }).catch((err) => {
    throw isUniqueViolation(err) ? exists() : err;
  });
}

export async function doRemovePlayground(app: App, realm: Realm, user: User, id: number): Promise<void> {
  checkAdministrator(user);
  await inTransaction(app, async (tx, emit) => {
    if (!(await deletePlayground(tx, realm.id, id))) throw new ApiError('Invalid playground');
    await notify(tx, emit, realm);
  });
}
