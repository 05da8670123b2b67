// Lookups into the organization's cached user list (listUsers) without walking it: the list is the same array
// until a user changes, and is made of parts by range of ids that later lists share (listParts), so an index is
// built per part and a change rebuilds only its part's (1,024 users, not 50,000).
import { listParts, USER_RANGE, type User } from '../store/users.js';

const idIndexes = new WeakMap<User[], Map<number, User>>();
const nameIndexes = new WeakMap<User[], Map<string, User[]>>();

function idIndex(part: User[]): Map<number, User> {
  let index = idIndexes.get(part);
  if (!index) idIndexes.set(part, (index = new Map(part.map((u) => [u.id, u]))));
  return index;
}

function nameIndex(part: User[]): Map<string, User[]> {
  let index = nameIndexes.get(part);
  if (!index) {
    nameIndexes.set(part, (index = new Map()));
    for (const u of part) {
      const key = u.fullName.toLowerCase();
      const same = index.get(key);
      if (same) same.push(u);
      else index.set(key, [u]);
    }
  }
  return index;
}

// A lookup by id into the list, its parts found once: it runs for every subscriber of a channel.
export function usersById(users: User[]): (id: number) => User | undefined {
  const parts = listParts(users);
  if (!parts) {
    const index = idIndex(users);
    return (id) => index.get(id);
  }
  return (id) => {
    const part = parts.get(Math.floor(id / USER_RANGE));
    return part && idIndex(part).get(id);
  };
}

// By full name as a mention spells it (lower case), in id order.
export function usersNamed(users: User[], lowerName: string): User[] {
  const parts = listParts(users);
  if (!parts) return nameIndex(users).get(lowerName) ?? [];
  return [...parts.values()].flatMap((part) => nameIndex(part).get(lowerName) ?? []);
}
