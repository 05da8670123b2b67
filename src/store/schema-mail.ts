import type { Generated } from 'kysely';

export interface PasswordResetTable {
  token_hash: string;
  user_id: number;
  created: number;
  expires: number;
}

export interface MissedMessageNoticeTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  message_id: number;
  reason: string;
  due: number;
}
