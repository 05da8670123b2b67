import { accessUserByPassword } from '../actions/auth.js';
import { route } from '../http/route.js';
import { str } from '../http/params.js';

export const authRoutes = [
  route({
    method: 'POST',
    path: '/fetch_api_key',
    auth: 'none',
    summary: 'Exchange an e-mail and password for an API key',
    params: { username: str(), password: str() },
    handler: async ({ app, realm, params }) => {
      const user = await accessUserByPassword(app, realm, params.username, params.password);
      return { api_key: user.apiKey, email: user.email, user_id: user.id };
    },
  }),
];
