// The onboarding_steps register block.
import type { User } from '../store/users.js';

export function onboardingSteps(user: User | null): { type: string; name: string }[] {
  if (!user) return [];
  const seen = new Set((user.settings[SEEN] as string[] | undefined) ?? []);
  return ONE_TIME_NOTICES.filter((name) => !seen.has(name)).map((name) => ({ type: 'one_time_notice', name }));
}

// Bookkeeping key in the user's settings (not a setting): the steps they have seen.
export const SEEN = '_onboarding_seen';

export const ONE_TIME_NOTICES = [
  'visibility_policy_banner', 'intro_inbox_view_modal', 'intro_recent_view_modal', 'first_stream_created_banner',
  'jump_to_conversation_banner', 'non_interleaved_view_messages_fading', 'interleaved_view_messages_fading',
] as const;
