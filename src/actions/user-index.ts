// Lookups into the organization's cached user list (listUsers), built once per list: the cached list is the same
// array until a user changes, so a lookup costs a map access instead of a walk over every user.
import type { User } from '../store/users.js';

interface Index {
  byId?: Map<number, User>;
  byName?: Map<string, User[]>;
}
const indexes = new WeakMap<User[], Index>();

function indexOf(users: User[]): Index {
  let index = indexes.get(users);
  if (!index) indexes.set(users, (index = {}));
  return index;
}

export function usersById(users: User[]): Map<number, User> {
  const index = indexOf(users);
  return (index.byId ??= new Map(users.map((u) => [u.id, u])));
}

// By full name as a mention spells it (lower case); users of one name in id order.
export function usersByLowerName(users: User[]): Map<string, User[]> {
  const index = indexOf(users);
  if (!index.byName) {
    index.byName = new Map();
    for (const u of users) {
      const key = u.fullName.toLowerCase();
      const same = index.byName.get(key);
      if (same) same.push(u);
      else index.byName.set(key, [u]);
    }
  }
  return index.byName;
}
