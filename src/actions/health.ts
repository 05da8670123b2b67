import type { App } from '../app.js';
import { ping } from '../store/db.js';

// GET /health: the process answers and its database does too.
export async function accessHealth(app: App): Promise<void> {
  await ping(app.db);
}
