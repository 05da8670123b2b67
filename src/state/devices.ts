// The devices register block.
import type { Db } from '../store/db.js';
import { listDevices, type Device } from '../store/devices.js';
import type { User } from '../store/users.js';

export async function devicesState(db: Db, user: User | null): Promise<{ devices: Record<string, unknown> }> {
  if (!user) return { devices: {} };
  return { devices: Object.fromEntries((await listDevices(db, user.id)).map((d) => [String(d.id), deviceState(d)])) };
}

// The register block and events show a device by these fields.
export function deviceState(d: Device) {
  return {
    push_key_id: d.push_key_id,
    push_token_id: d.push_token_id,
    pending_push_token_id: d.pending_push_token_id,
    push_token_last_updated_timestamp: d.push_token_last_updated,
    push_registration_error_code: d.push_registration_error_code,
  };
}
