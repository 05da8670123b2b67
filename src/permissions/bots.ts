// Who administers a bot, and who may hold its secrets: the one rule every path and event that carries a bot's
// API key or outgoing-webhook token goes through.
import { ROLE, type User } from '../store/users.js';
import { isRealmAdmin } from './channels.js';

// The reference server's can_admin_user for bots: the bot's owner, or an administrator. Only people administer
// bots (bots are refused the bot endpoints, and hear no realm_bot events).
export function administersBot(viewer: User, bot: User): boolean {
  return viewer.isActive && !viewer.isBot && (bot.botOwnerId === viewer.id || isRealmAdmin(viewer));
}

// A bot's secrets let whoever holds them act as the bot, with the bot's role: they are shown only to those who
// administer it and whose role is not below the bot's (roles are numbered from owner, 100, to guest, 600).
export function seesBotSecrets(viewer: User, bot: User): boolean {
  return administersBot(viewer, bot) && viewer.role <= bot.role;
}

// The refusal of a bot's secrets to someone who administers it but ranks below it.
export function roleNeededFor(bot: User): 'owner' | 'administrator' | null {
  return bot.role === ROLE.owner ? 'owner' : bot.role === ROLE.administrator ? 'administrator' : null;
}
