// POST /register (and GET /events without a queue): read the state and open a queue that receives exactly the
// events committed after that state was read.
import type { App } from '../app.js';
import { longpollTimeoutSeconds } from '../config.js';
import type { QueueOptions } from '../events/queue.js';
import { ApiError, UnauthorizedError } from '../lib/errors.js';
import { checkSearchTerms, MAX_NARROW_TERMS, tooManyTerms } from './messages-fetch.js';
import { resolveWithOperator } from './narrow-with.js';
import { fetchInitialState, type StateOptions } from '../state/index.js';
import { realmSettings } from '../state/realm.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { readSnapshot } from '../store/tx.js';
import { ROLE, type User } from '../store/users.js';
import { FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from '../version.js';

export const MAX_IDLE_QUEUE_TIMEOUT = 7 * 24 * 3600;

export interface RegisterInput {
  applyMarkdown: boolean;
  clientGravatar?: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays?: number;
  eventTypes: string[] | null;
  fetchEventTypes?: string[] | null;
  allPublicStreams: boolean;
  capabilities: Record<string, boolean>;
  narrow: [string, string][];
  idleQueueTimeout?: number | 'mobile';
}

const VALID_NARROW_OPERATORS = new Set([
  'stream', 'channel', 'topic', 'subject', 'sender', 'is', 'dm', 'pm-with', 'dm-including', 'search', 'id', 'near',
  'channels', 'streams', 'has', 'group-pm-with', 'with',
]);

// Narrows arrive as [operator, operand] pairs or {operator, operand, negated} objects.
export function checkNarrow(raw: unknown[]): [string, string][] {
  if (raw.length > MAX_NARROW_TERMS) throw tooManyTerms();
  const terms = raw.map((term): [string, string] => {
    let op: unknown, operand: unknown, negated = false;
    if (Array.isArray(term) && term.length === 2) [op, operand] = term;
    else if (term && typeof term === 'object' && 'operator' in term && 'operand' in term) {
      ({ operator: op, operand } = term as { operator: unknown; operand: unknown });
      negated = (term as { negated?: unknown }).negated === true;
    } else throw new ApiError('Invalid narrow');
    if (typeof op !== 'string' || !VALID_NARROW_OPERATORS.has(op.replace(/^-/, ''))) {
      throw new ApiError(`Invalid narrow operator: ${String(op)}`, 'BAD_NARROW');
    }
    if (typeof operand !== 'string' && typeof operand !== 'number') throw new ApiError('Invalid narrow operand', 'BAD_NARROW');
    return [negated ? `-${op}` : op, String(operand)];
  });
  checkSearchTerms(terms.map(([operator, operand]) => ({ operator, operand })));
  return terms;
}

// The reference server's lifetime for queues of mobile clients, which poll only while in the foreground.
export const MOBILE_IDLE_QUEUE_TIMEOUT = 12 * 3600;

// A queue's narrow names conversations as message events show them: `with` becomes the channel and topic, or the
// other members' ids, of the message's conversation.
export async function resolveQueueNarrow(app: App, realm: Realm, user: User, narrow: [string, string][]): Promise<[string, string][]> {
  if (!narrow.some(([op]) => op === 'with')) return narrow;
  const terms = narrow.map(([op, operand]) => ({ operator: op.replace(/^-/, ''), operand, negated: op.startsWith('-') }));
  const resolved = await resolveWithOperator(app.db, realm, user, terms);
  return resolved.map((t) => [`${t.negated ? '-' : ''}${t.operator}`, Array.isArray(t.operand) ? t.operand.join(',') : String(t.operand)]);
}

export function checkIdleTimeout(app: App, requested?: number | 'mobile'): number {
  if (requested === undefined) return app.config.queueIdleTimeoutSeconds;
  if (requested === 'mobile') return MOBILE_IDLE_QUEUE_TIMEOUT;
  if (requested < 1 || requested > MAX_IDLE_QUEUE_TIMEOUT) {
    throw new ApiError(`idle_queue_timeout must be between 1 and ${MAX_IDLE_QUEUE_TIMEOUT} seconds`);
  }
  return requested;
}

export async function doRegister(app: App, realm: Realm, user: User | null, input: RegisterInput, realmUrl: string) {
  if (!user) {
    if (!realmSettings(realm).enable_spectator_access) throw new UnauthorizedError();
    if (input.clientGravatar === true) throw new ApiError("Invalid 'client_gravatar' parameter for anonymous request");
    if (input.includeSubscribers === 'true') throw new ApiError("Invalid 'include_subscribers' parameter for anonymous request");
  }
  const idleTimeout = checkIdleTimeout(app, input.idleQueueTimeout);
  const options: StateOptions = {
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar ?? user !== null,
    includeSubscribers: input.includeSubscribers,
    slimPresence: input.slimPresence,
    presenceHistoryLimitDays: input.presenceHistoryLimitDays,
    capabilities: input.capabilities,
    narrow: input.narrow,
  };
  const fetchTypes = input.fetchEventTypes === undefined ? input.eventTypes : input.fetchEventTypes;
  const { result: state, logPosition } = await readSnapshot(app.reads, app.dialect, async (tx) => {
    const systemGroups = await systemGroupIds(tx, realm.id);
    return fetchInitialState({ app, db: tx, realm, user, options, realmUrl, systemGroups }, fetchTypes);
  });
  const queue = user ? await openQueue(app, realm, user, input, idleTimeout, logPosition) : null;
  return {
    queue_id: queue ? queue.id : null,
    last_event_id: -1,
    zulip_version: ZULIP_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_merge_base: ZULIP_MERGE_BASE,
    idle_queue_timeout_secs: idleTimeout,
    event_queue_longpoll_timeout_seconds: longpollTimeoutSeconds(app.config),
    ...state,
  };
}

export async function openQueue(app: App, realm: Realm, user: User, input: RegisterInput, idleTimeout: number, logPosition: number) {
  const options: QueueOptions = {
    eventTypes: input.eventTypes,
    narrow: await resolveQueueNarrow(app, realm, user, input.narrow),
    allPublicStreams: input.allPublicStreams,
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar ?? true,
    slimPresence: input.slimPresence,
    capabilities: input.capabilities,
    readsPublicChannels: user.role !== ROLE.guest,
  };
  return app.events!.register(realm.id, user.id, options, idleTimeout, logPosition);
}
