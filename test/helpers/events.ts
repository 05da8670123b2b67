// Registers event queues for several users and reads what each received, to check events and recipients.
import assert from 'node:assert/strict';
import type { SeedName, TestServer } from './server.js';

export class Listeners {
  private queues = new Map<SeedName, { id: string; last: number }>();
  constructor(private server: TestServer) {}

  static async open(server: TestServer, names: SeedName[], params: Record<string, unknown> = {}): Promise<Listeners> {
    const l = new Listeners(server);
    for (const name of names) {
      const res = await server.as(name).post('/register', { fetch_event_types: [], ...params });
      assert.equal(res.status, 200, res.text);
      l.queues.set(name, { id: res.body.queue_id, last: res.body.last_event_id });
    }
    return l;
  }

  // What the user's queue received since the previous call (which this call acknowledges).
  async take(name: SeedName, type?: string): Promise<Record<string, any>[]> {
    const q = this.queues.get(name)!;
    const res = await this.server.as(name).get('/events', { queue_id: q.id, last_event_id: q.last, dont_block: true });
    assert.equal(res.status, 200, res.text);
    const events = res.body.events as Record<string, any>[];
    if (events.length) q.last = events.at(-1)!.id;
    return type ? events.filter((e) => e.type === type) : events;
  }

  // The events of this type, once the user's queue has one (events of other types are passed over).
  async waitFor(name: SeedName, type: string): Promise<Record<string, any>[]> {
    return eventually(async () => {
      const events = await this.take(name, type);
      return events.length ? events : undefined;
    });
  }

  async clear(): Promise<void> {
    for (const name of this.queues.keys()) await this.take(name);
  }
}

// Events reach queues after the commit, from the event log when another write came between: a test that must see
// one polls for it, for at most `ms`. Every event of one change reaches every queue at once, so once one
// recipient has it, the others' queues can be read directly.
export async function eventually<T>(check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) assert.fail('not within the time allowed');
    await new Promise((r) => setTimeout(r, 100));
  }
}
