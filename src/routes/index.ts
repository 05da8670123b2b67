import type { AnyRoute } from '../http/route.js';
import { authRoutes } from './auth.js';
import { serverRoutes } from './server.js';
import { userRoutes } from './users.js';
import { registerRoutes } from './register.js';
import { eventRoutes } from './events.js';
import { subscriptionRoutes } from './subscriptions.js';
import { streamRoutes } from './streams.js';
import { messageRoutes } from './messages.js';
import { settingsRoutes } from './settings.js';
import { presenceRoutes } from './presence.js';
import { draftRoutes } from './drafts.js';
import { snippetAndViewRoutes } from './snippets-views.js';
import { userGroupRoutes } from './user-groups.js';
import { scheduledMessageRoutes } from './scheduled-messages.js';
import { userStatusRoutes } from './user-status.js';
import { userAdminRoutes } from './users-admin.js';
import { userTopicRoutes } from './user-topics.js';
import { channelFolderRoutes } from './channel-folders.js';
import { realmRoutes } from './realm.js';
import { messageEditRoutes } from './message-edit.js';
import { reactionRoutes } from './reactions.js';
import { realmEmojiRoutes } from './realm-emoji.js';
import { linkifierRoutes } from './linkifiers.js';
import { uploadRoutes } from './uploads.js';
import { attachmentRoutes } from './attachments.js';
import { avatarRoutes } from './avatars.js';
import { inviteRoutes } from './invites.js';
import { signupRoutes } from './signup.js';
import { reminderRoutes } from './reminders.js';
import { alertWordRoutes } from './alert-words.js';
import { profileFieldRoutes } from './profile-fields.js';
import { realmDomainRoutes } from './realm-domains.js';
import { userDefaultRoutes } from './user-defaults.js';
import { botRoutes } from './bots.js';
import { botStorageRoutes } from './bot-storage.js';
import { mutedUserRoutes } from './muted-users.js';
import { submessageRoutes } from './submessages.js';
import { deviceRoutes } from './devices.js';
import { onboardingRoutes } from './onboarding.js';
import { markReadRoutes } from './mark-read.js';
import { defaultStreamRoutes } from './default-streams.js';
import { playgroundRoutes } from './playgrounds.js';
import { welcomeBotRoutes } from './welcome-bot.js';
import { loginRoutes } from './login.js';
import { passwordResetRoutes } from './password-reset.js';
import { firstStartRoutes } from './first-start.js';
import { webAppRoutes } from './web-app.js';
import { webhookRoutes } from './webhooks.js';
import { integrationRoutes } from './integrations.js';

// One entry per API area; add new areas at the end.
export function allRoutes(): AnyRoute[] {
  const routes: AnyRoute[] = [];
  routes.push(
    ...serverRoutes(() => routes),
    ...authRoutes,
    ...userRoutes,
    ...registerRoutes,
    ...eventRoutes,
    ...subscriptionRoutes,
    ...streamRoutes,
    ...messageRoutes,
    ...settingsRoutes,
    ...presenceRoutes,
    ...draftRoutes,
    ...snippetAndViewRoutes,
    ...userGroupRoutes,
    ...scheduledMessageRoutes,
    ...userStatusRoutes,
    ...userAdminRoutes,
    ...userTopicRoutes,
    ...channelFolderRoutes,
    ...realmRoutes,
    ...messageEditRoutes,
    ...reactionRoutes,
    ...realmEmojiRoutes,
    ...linkifierRoutes,
    ...uploadRoutes,
    ...attachmentRoutes,
    ...avatarRoutes,
    ...inviteRoutes,
    ...signupRoutes,
    ...reminderRoutes,
    ...alertWordRoutes,
    ...profileFieldRoutes,
    ...realmDomainRoutes,
    ...userDefaultRoutes,
    ...botRoutes,
    ...botStorageRoutes,
    ...mutedUserRoutes,
    ...submessageRoutes,
    ...deviceRoutes,
    ...onboardingRoutes,
    ...markReadRoutes,
    ...defaultStreamRoutes,
    ...playgroundRoutes,
    ...welcomeBotRoutes,
    ...loginRoutes,
    ...passwordResetRoutes,
    ...firstStartRoutes,
    ...webAppRoutes,
    ...webhookRoutes,
    ...integrationRoutes,
  );
  return routes;
}
