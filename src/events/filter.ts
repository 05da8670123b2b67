// Which events a queue receives, and in which format, from its registration options.
import type { QueueOptions } from './queue.js';
import { matchesNarrow } from './narrow.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../state/realm-data.js';

export function accepts(q: QueueOptions, event: Record<string, unknown>, flags: string[]): boolean {
  const type = event.type as string;
  if (q.eventTypes && !q.eventTypes.includes(type)) return false;
  if (type === 'muted_topics' && q.eventTypes?.includes('user_topic')) return false;
  const caps = q.capabilities;
  switch (type) {
    case 'message':
      return matchesNarrow(q.narrow, event.message as Record<string, unknown>, flags);
    case 'typing':
      return event.stream_id === undefined || !!caps.stream_typing_notifications;
    case 'delete_message':
      // A deletion of several messages also logs single-message copies (`_single`) for queues without
      // bulk_message_deletion; a deletion of one is reshaped for them in reformat.
      if (event._single) return !caps.bulk_message_deletion;
      return !!caps.bulk_message_deletion || (event.message_ids as unknown[]).length === 1;
    case 'user_group':
      // Without include_deactivated_groups a deactivated group is gone: it is removed, comes back as an `add`
      // when reactivated, and changes to it in between are not sent.
      if (event.op === 'remove' || event._for_reactivation) return !caps.include_deactivated_groups;
      if (event._deactivated) return !!caps.include_deactivated_groups;
      if (event.op === 'update' && (event.data as Record<string, unknown> | undefined)?.deactivated !== undefined) {
        return !!caps.include_deactivated_groups;
      }
      return true;
    case 'stream':
      // Archiving is an is_archived update for clients that know archived channels, a delete/create for others.
      if (event.op === 'update' && event.property === 'is_archived') return !!caps.archived_channels;
      if (event._for_archiving || event._for_unarchiving) return !caps.archived_channels;
      return true;
    // Custom emoji changes come once per format: every emoji (`update`) or just the change (`add`, `edit`).
    case 'realm_emoji':
      return (event.op === 'update') !== !!caps.individual_emoji_changes;
    // Linkifier templates reach only clients that read them; the others get the legacy format.
    case 'realm_linkifiers':
      return !!caps.linkifier_url_template;
    case 'realm_filters':
      return !caps.linkifier_url_template;
    // Placeholders for users a guest may not access go to clients that keep a complete user list.
    case 'realm_user':
      return !event._inaccessible_user || !caps.user_list_incomplete;
    default:
      return true;
  }
}

const GRAVATAR = 'https://secure.gravatar.com/';

// Channel topics carried by these events follow the empty_topic_name capability, as message subjects do.
const TOPIC_FIELDS: Record<string, string[]> = { update_message: ['orig_subject', 'subject'], delete_message: ['topic'], typing: ['topic'] };

// Per-flavour rewriting of an event, done once per flavour (see deliver in system.ts), not once per queue.
export function flavourKey(q: QueueOptions): string {
  return `${q.clientGravatar ? 1 : 0}${q.applyMarkdown ? 1 : 0}${q.capabilities.empty_topic_name ? 1 : 0}${q.capabilities.simplified_presence_events ? 1 : 0}${q.capabilities.bulk_message_deletion ? 1 : 0}`;
}

// Events in the log may carry fields for the server only (names starting with `_`); clients never see them.
export function reformat(q: QueueOptions, event: Record<string, unknown>, blind = false): Record<string, unknown> {
  const out = reformatFor(q, event);
  if (blind) applyPatch(out, event._blind_patch as Record<string, unknown> | undefined);
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

// Replaces the fields that show a user with their placeholder; nested objects (the message) are merged.
function applyPatch(out: Record<string, unknown>, patch: Record<string, unknown> | undefined): void {
  for (const [k, v] of Object.entries(patch ?? {})) out[k] = isRecord(out[k]) && isRecord(v) ? { ...out[k], ...v } : v;
}

function reformatFor(q: QueueOptions, event: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(event)) if (!k.startsWith('_')) out[k] = v;
  if (event.type === 'realm_user' && q.clientGravatar && !event._avatar_for_all) {
    const person = event.person as Record<string, unknown> | undefined;
    if (typeof person?.avatar_url === 'string' && person.avatar_url.startsWith(GRAVATAR)) {
      out.person = { ...person, avatar_url: null };
    }
  }
  if (event.type === 'user_topic' && event.topic_name === '' && !q.capabilities.empty_topic_name) out.topic_name = EMPTY_TOPIC_DISPLAY_NAME;
  // With simplified_presence_events, presence changes come in the modern form (§2.8).
  if (event.type === 'presence' && q.capabilities.simplified_presence_events) return { type: 'presence', presences: event._presences };
  if (event.type === 'delete_message' && Array.isArray(event.message_ids) && !q.capabilities.bulk_message_deletion) {
    delete out.message_ids;
    out.message_id = event.message_ids[0];
  }
  if (!q.capabilities.empty_topic_name) {
    for (const k of TOPIC_FIELDS[event.type as string] ?? []) if (out[k] === '') out[k] = EMPTY_TOPIC_DISPLAY_NAME;
  }
  if (event.type === 'message') {
    const message = { ...(event.message as Record<string, unknown>) };
    if (!q.applyMarkdown) {
      message.content = event._raw_content;
      message.content_type = 'text/x-markdown';
    }
    if (q.clientGravatar && typeof message.avatar_url === 'string' && message.avatar_url.startsWith(GRAVATAR)) message.avatar_url = null;
    if (!q.capabilities.empty_topic_name && message.type === 'stream' && message.subject === '') message.subject = EMPTY_TOPIC_DISPLAY_NAME;
    out.message = message;
  }
  return out;
}
