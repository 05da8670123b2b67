// Onboarding steps (register's onboarding_steps, POST /users/me/onboarding_steps): the reference's one-time
// notices a user has not dismissed yet. This server has no interface of its own, so there are no hotspots.
import type { App } from '../app.js';
import { ApiError } from '../lib/errors.js';
import type { Realm } from '../store/realms.js';
import { lockUsers, updateUser, type User } from '../store/users.js';
import { inTransaction } from './transaction.js';
import { ONE_TIME_NOTICES, SEEN, onboardingSteps } from '../state/onboarding.js';

export async function doMarkOnboardingStep(app: App, realm: Realm, user: User, step: string): Promise<void> {
  if (!(ONE_TIME_NOTICES as readonly string[]).includes(step)) throw new ApiError(`Unknown onboarding_step: ${step}`);
  await inTransaction(app, async (tx, emit) => {
    const fresh = (await lockUsers(tx, realm.id, [user.id]))[0] ?? user;
    const seen = new Set((fresh.settings[SEEN] as string[] | undefined) ?? []);
    if (seen.has(step)) return;
    seen.add(step);
    const settings = { ...fresh.settings, [SEEN]: [...seen] };
    await updateUser(tx, user.id, { settings });
    emit(realm.id, { type: 'onboarding_steps', onboarding_steps: onboardingSteps({ ...fresh, settings }) }, [user.id]);
  });
}
