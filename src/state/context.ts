// What every register block producer receives. Apart from index.ts, which lists the producers, so that the
// producers and the index do not import each other.
import type { App } from '../app.js';
import type { Db } from '../store/db.js';
import type { Realm } from '../store/realms.js';
import type { User } from '../store/users.js';

export interface StateOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays?: number;
  capabilities: Record<string, boolean>;
  narrow: [string, string][];
}

export interface StateContext {
  app: App;
  db: Db;
  realm: Realm;
  user: User | null;
  options: StateOptions;
  realmUrl: string;
  systemGroups: Map<string, number>;
  // The fetch types asked for (null: all); some blocks depend on a combination of them.
  types: Set<string> | null;
}
