// The `user_topics` and legacy `muted_topics` blocks of POST /register.
import type { Db } from '../store/db.js';
import { listUserTopics } from '../store/user-topics.js';
import type { User } from '../store/users.js';
import { EMPTY_TOPIC_DISPLAY_NAME } from './realm-data.js';

export async function userTopicsState(db: Db, user: User | null, capabilities: Record<string, boolean>): Promise<Record<string, unknown>> {
  if (!user) return { user_topics: [] };
  const rows = await listUserTopics(db, user.id);
  return {
    user_topics: rows.map((t) => ({
      stream_id: t.streamId,
      // Clients without empty_topic_name know the empty topic only by its display name.
      topic_name: t.topicName === '' && !capabilities.empty_topic_name ? EMPTY_TOPIC_DISPLAY_NAME : t.topicName,
      last_updated: t.lastUpdated,
      visibility_policy: t.visibilityPolicy,
    })),
  };
}

// A client asking for both gets only user_topics, as the reference server does; asking for everything gets both.
export async function mutedTopicsState(db: Db, user: User | null, types: Set<string> | null): Promise<Record<string, unknown>> {
  if (types && types.has('user_topic')) return {};
  return { muted_topics: user ? await mutedTopicsList(db, user.id) : [] };
}

export async function mutedTopicsList(db: Db, userId: number): Promise<[string, string, number][]> {
  return (await listUserTopics(db, userId, VISIBILITY_POLICY.muted)).map((t) => [t.streamName, t.topicName, t.lastUpdated]);
}

export const VISIBILITY_POLICY = { inherit: 0, muted: 1, unmuted: 2, followed: 3 } as const;
