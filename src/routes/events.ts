import { checkIdleTimeout, openQueue } from '../actions/register.js';
import { bool, int, str } from '../http/params.js';
import { route } from '../http/route.js';
import { registerInput, registerParams } from './register.js';
import { MissingArgumentError } from '../lib/errors.js';
import { serializeEvents } from '../events/queue.js';

export const eventRoutes = [
  route({
    method: 'GET',
    path: '/events',
    auth: 'user',
    summary: 'Long-poll an event queue',
    params: { queue_id: str().optional(), last_event_id: int().optional(), dont_block: bool().default(false), ...registerParams },
    handler: async ({ app, realm, user, params, reply }) => {
      const events = app.events!;
      let queue;
      if (params.queue_id === undefined) {
        // Without a queue the register parameters configure a new one; only a non-blocking call may do that.
        if (!params.dont_block) throw new MissingArgumentError('queue_id');
        const input = registerInput(params);
        queue = await openQueue(app, realm, user, input, checkIdleTimeout(app, input.idleQueueTimeout), events.logPosition);
      } else {
        queue = await events.access(params.queue_id, user.id);
        if (params.last_event_id === undefined) throw new MissingArgumentError('last_event_id');
        await events.resync(queue, params.last_event_id);
        await events.acknowledge(queue, params.last_event_id);
      }
      // The response's close event means the client went away (or the reply was sent, which makes this a no-op).
      const ready = await events.poll(queue, params.dont_block, (fn) => reply.raw.once('close', fn));
      return { events: serializeEvents(ready), queue_id: queue.id };
    },
  }),
  route({
    method: 'DELETE',
    path: '/events',
    auth: 'user',
    summary: 'Delete an event queue',
    params: { queue_id: str() },
    handler: async ({ app, user, params }) => {
      const events = app.events!;
      await events.delete(await events.access(params.queue_id, user.id));
    },
  }),
];
