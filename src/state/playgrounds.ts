// The realm_playgrounds register block.
import type { Db } from '../store/db.js';
import { listPlaygrounds, type Playground } from '../store/playgrounds.js';
import type { Realm } from '../store/realms.js';

export async function playgroundsState(db: Db, realm: Realm): Promise<{ realm_playgrounds: Playground[] }> {
  return { realm_playgrounds: await listPlaygrounds(db, realm.id) };
}
