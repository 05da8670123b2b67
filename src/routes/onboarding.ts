import { doMarkOnboardingStep } from '../actions/onboarding.js';
import { str } from '../http/params.js';
import { route } from '../http/route.js';

export const onboardingRoutes = [
  route({
    method: 'POST',
    path: '/users/me/onboarding_steps',
    auth: 'user',
    summary: 'Mark an onboarding step as seen',
    params: { onboarding_step: str() },
    handler: async ({ app, realm, user, params }) => {
      await doMarkOnboardingStep(app, realm, user, params.onboarding_step);
    },
  }),
];
