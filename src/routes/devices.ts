import { doAddPushToken, doRegisterClientDevice, doRegisterPushDevice, doRemoveClientDevice, doRemovePushToken } from '../actions/devices.js';
import { int, oneOf, str } from '../http/params.js';
import { route } from '../http/route.js';

const TOKEN = { token: str() };

export const deviceRoutes = [
  route({
    method: 'POST',
    path: '/register_client_device',
    auth: 'user',
    summary: 'Register a logged-in mobile device',
    params: {},
    handler: ({ app, realm, user }) => doRegisterClientDevice(app, realm, user),
  }),
  route({
    method: 'POST',
    path: '/remove_client_device',
    auth: 'user',
    summary: 'Remove a registered device (logging out)',
    params: { device_id: int() },
    handler: async ({ app, realm, user, params }) => {
      await doRemoveClientDevice(app, realm, user, params.device_id);
    },
  }),
  route({
    method: 'POST',
    path: '/mobile_push/register',
    auth: 'user',
    summary: 'Register a device for end-to-end encrypted push notifications, or rotate its key or token',
    params: {
      device_id: int(),
      push_key_id: int({ min: 0, max: 2 ** 32 - 1 }).optional(),
      push_key: str().optional(),
      token_kind: oneOf(['fcm', 'apns'] as const).optional(),
      token_id: str().optional(),
      bouncer_public_key: str().optional(),
      encrypted_push_registration: str().optional(),
    },
    handler: async ({ app, realm, user, params }) => {
      await doRegisterPushDevice(app, realm, user, {
        deviceId: params.device_id, pushKeyId: params.push_key_id, pushKey: params.push_key, tokenKind: params.token_kind, tokenId: params.token_id,
        bouncerPublicKey: params.bouncer_public_key, encryptedPushRegistration: params.encrypted_push_registration,
      });
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/apns_device_token',
    auth: 'user',
    summary: 'Add an APNs device token',
    params: { ...TOKEN, appid: str().optional() },
    handler: async ({ app, realm, user, params }) => {
      await doAddPushToken(app, realm, user, 'apns', params.token, params.appid);
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/apns_device_token',
    auth: 'user',
    summary: 'Remove an APNs device token',
    params: TOKEN,
    handler: async ({ app, realm, user, params }) => {
      await doRemovePushToken(app, realm, user, 'apns', params.token);
    },
  }),
  route({
    method: 'POST',
    path: '/users/me/android_gcm_reg_id',
    auth: 'user',
    summary: 'Add an FCM registration token',
    params: TOKEN,
    handler: async ({ app, realm, user, params }) => {
      await doAddPushToken(app, realm, user, 'fcm', params.token);
    },
  }),
  route({
    method: 'DELETE',
    path: '/users/me/android_gcm_reg_id',
    auth: 'user',
    summary: 'Remove an FCM registration token',
    params: TOKEN,
    handler: async ({ app, realm, user, params }) => {
      await doRemovePushToken(app, realm, user, 'fcm', params.token);
    },
  }),
];
