import type { Db } from './db.js';

// What a bot has beyond its user row: default channels and its service (outgoing webhook or embedded bot).
export interface BotSettings {
  defaultSendingStreamId: number | null;
  defaultEventsRegisterStreamId: number | null;
  defaultAllPublicStreams: boolean;
  serviceName: string | null;
  serviceBaseUrl: string | null;
  serviceInterface: number | null;
  serviceToken: string | null;
  configData: Record<string, string>;
}

export const NO_BOT_SETTINGS: Readonly<BotSettings> = Object.freeze({
  defaultSendingStreamId: null,
  defaultEventsRegisterStreamId: null,
  defaultAllPublicStreams: false,
  serviceName: null,
  serviceBaseUrl: null,
  serviceInterface: null,
  serviceToken: null,
  configData: {},
});

export async function botSettings(db: Db, userIds: number[]): Promise<Map<number, BotSettings>> {
  const out = new Map<number, BotSettings>();
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db.selectFrom('bot_settings').selectAll().where('user_id', 'in', userIds.slice(i, i + 500)).execute();
    for (const r of rows) {
      out.set(r.user_id, {
        defaultSendingStreamId: r.default_sending_stream_id,
        defaultEventsRegisterStreamId: r.default_events_register_stream_id,
        defaultAllPublicStreams: r.default_all_public_streams === 1,
        serviceName: r.service_name,
        serviceBaseUrl: r.service_base_url,
        serviceInterface: r.service_interface,
        serviceToken: r.service_token,
        configData: JSON.parse(r.config_data) as Record<string, string>,
      });
    }
  }
  return out;
}

export async function saveBotSettings(db: Db, userId: number, s: BotSettings): Promise<void> {
  const values = {
    default_sending_stream_id: s.defaultSendingStreamId,
    default_events_register_stream_id: s.defaultEventsRegisterStreamId,
    default_all_public_streams: s.defaultAllPublicStreams ? 1 : 0,
    service_name: s.serviceName,
    service_base_url: s.serviceBaseUrl,
    service_interface: s.serviceInterface,
    service_token: s.serviceToken,
    config_data: JSON.stringify(s.configData),
  };
  const r = await db.updateTable('bot_settings').set(values).where('user_id', '=', userId).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) await db.insertInto('bot_settings').values({ user_id: userId, ...values }).execute();
}
