// Onboarding steps (register's onboarding_steps, POST /users/me/onboarding_steps): the reference's one-time
// notices a user has not dismissed yet. This server has no interface of its own, so there are no hotspots.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Realm } from '../store/realms.js';
import { findUser, updateUser, type User } from '../store/users.js';
import { inTransaction } from './transaction.js';

export const ONE_TIME_NOTICES = [
  'visibility_policy_banner', 'intro_inbox_view_modal', 'intro_recent_view_modal', 'first_stream_created_banner',
  'jump_to_conversation_banner', 'non_interleaved_view_messages_fading', 'interleaved_view_messages_fading',
] as const;

// Bookkeeping key in the user's settings (not a setting): the steps they have seen.
const SEEN = '_onboarding_seen';

export function onboardingSteps(user: User | null): { type: string; name: string }[] {
  if (!user) return [];
  const seen = new Set((user.settings[SEEN] as string[] | undefined) ?? []);
  return ONE_TIME_NOTICES.filter((name) => !seen.has(name)).map((name) => ({ type: 'one_time_notice', name }));
}

export async function doMarkOnboardingStep(app: App, realm: Realm, user: User, step: string): Promise<void> {
  if (!(ONE_TIME_NOTICES as readonly string[]).includes(step)) throw new ApiError(`Unknown onboarding_step: ${step}`);
  await inTransaction(app, async (tx, emit) => {
    const fresh = (await findUser(tx, realm.id, user.id)) ?? user;
    const seen = new Set((fresh.settings[SEEN] as string[] | undefined) ?? []);
    if (seen.has(step)) return;
    seen.add(step);
    const settings = { ...fresh.settings, [SEEN]: [...seen] };
    await updateUser(tx, user.id, { settings });
    emit(realm.id, { type: 'onboarding_steps', onboarding_steps: onboardingSteps({ ...fresh, settings }) }, [user.id]);
  });
}
