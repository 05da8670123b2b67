import type { Generated } from 'kysely';

export interface WebhookDeliveryTable {
  id: Generated<number>;
  realm_id: number;
  bot_id: number;
  message_id: number;
  trigger: string;
  depth: Generated<number>;
  message: string;
  attempts: Generated<number>;
  next_attempt: number;
  created: number;
  done_at: number | null;
  last_error: string | null;
}

export interface ChannelEmailTokenTable {
  stream_id: number;
  realm_id: number;
  token: string;
  created: number;
}
