import { doTestWelcomeBotMessage } from '../actions/welcome-bot.js';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH } from '../actions/invites.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';

export const welcomeBotRoutes = [
  route({
    method: 'POST',
    path: '/realm/test_welcome_bot_custom_message',
    auth: 'user',
    summary: "The Welcome Bot's custom message, sent to the administrator to preview (administrators)",
    params: { welcome_message_custom_text: str({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }) },
    handler: ({ app, realm, user, params }) => doTestWelcomeBotMessage(app, realm, user, params.welcome_message_custom_text),
  }),
];
