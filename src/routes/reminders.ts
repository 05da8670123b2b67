import { accessReminders, doCreateReminder, doDeleteReminder } from '../actions/reminders.js';
import { int, str } from '../http/params.js';
import { route } from '../http/route.js';
import { organizationUrl } from '../lib/urls.js';

export const reminderRoutes = [
  route({
    method: 'GET', path: '/reminders', auth: 'user', summary: "The caller's pending reminders", params: {},
    handler: async ({ app, user }) => ({ reminders: await accessReminders(app, user) }),
  }),
  route({
    method: 'POST', path: '/reminders', auth: 'user', summary: 'Be reminded of a message later',
    params: { message_id: int(), scheduled_delivery_timestamp: int(), note: str().optional() },
    handler: async ({ app, realm, user, params }) => ({
      reminder_id: await doCreateReminder(app, realm, user, {
        messageId: params.message_id, scheduledDeliveryTimestamp: params.scheduled_delivery_timestamp, note: params.note,
      }, organizationUrl(app, realm)),
    }),
  }),
  route({
    method: 'DELETE', path: '/reminders/{reminder_id}', auth: 'user', summary: 'Delete a reminder', params: { reminder_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doDeleteReminder(app, realm, user, params.reminder_id);
    },
  }),
];
