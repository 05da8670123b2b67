// Bot records of the realm_bots register block and realm_bot events (the reference Bot schema).
import type { BotSettings } from '../store/bots.js';
import type { User } from '../store/users.js';
import { avatarUrl } from './users.js';

export const BOT_TYPE = { generic: 1, incomingWebhook: 2, outgoingWebhook: 3, embedded: 4 } as const;

// The single-element service list: an outgoing webhook's URL, format and token, or an embedded bot's name and
// configuration; other bots have none. Without `secrets` the token is blank (src/permissions/bots.ts).
export function botServices(bot: User, s: BotSettings, secrets: boolean): Record<string, unknown>[] {
  if (bot.botType === BOT_TYPE.outgoingWebhook) {
    return [{ base_url: s.serviceBaseUrl ?? '', interface: s.serviceInterface ?? 1, token: secrets ? (s.serviceToken ?? '') : '' }];
  }
  if (bot.botType === BOT_TYPE.embedded) return [{ service_name: s.serviceName ?? '', config_data: s.configData }];
  return [];
}

// Without `secrets` the API key and the service token are blank: the record of a bot whose role is above the
// viewer's.
export function formatBot(bot: User, s: BotSettings, streamName: (id: number | null) => string | null, secrets: boolean): Record<string, unknown> {
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: secrets ? bot.apiKey : '',
    default_sending_stream: streamName(s.defaultSendingStreamId),
    default_events_register_stream: streamName(s.defaultEventsRegisterStreamId),
    default_all_public_streams: s.defaultAllPublicStreams,
    owner_id: bot.botOwnerId,
    avatar_url: avatarUrl(bot, false),
    services: botServices(bot, s, secrets),
  };
}
