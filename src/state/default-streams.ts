// The realm_default_stream_groups register block.
import { formatStream } from '../format/channels.js';
import type { Db } from '../store/db.js';
import { listDefaultStreamGroups } from '../store/default-stream-groups.js';
import { systemGroupIds } from '../store/groups.js';
import type { Realm } from '../store/realms.js';
import { listStreams } from '../store/streams.js';
import { subscriberIds } from '../store/subscriptions.js';

// The groups as register and events show them, archived channels left out.
export async function defaultStreamGroupsState(db: Db, realm: Realm): Promise<Record<string, unknown>[]> {
  const groups = await listDefaultStreamGroups(db, realm.id);
  if (!groups.length) return [];
  const streams = new Map((await listStreams(db, realm.id)).filter((s) => !s.isArchived).map((s) => [s.id, s]));
  const counts = await subscriberIds(db, [...new Set(groups.flatMap((g) => g.streamIds))].filter((id) => streams.has(id)));
  const systemGroups = await systemGroupIds(db, realm.id);
  return groups.map((g) => ({
    name: g.name,
    id: g.id,
    description: g.description,
    streams: g.streamIds.filter((id) => streams.has(id)).map((id) => formatStream(streams.get(id)!, { systemGroups, subscriberCount: counts.get(id)?.length ?? 0 })),
  }));
}
