// Every personal setting's accepted and rejected values, through PATCH /settings and through
// PATCH /realm/user_settings_defaults, which validate alike. The table is written out from the reference
// server's rules; a setting the server knows but the table lacks fails the first test.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers/server.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import type { ParamValue } from './helpers/client.js';

let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server?.close());

type Case = { ok: ParamValue[]; bad: [ParamValue, string][] };
const bool = (name: string): Case => ({ ok: [true, false], bad: [['yes', `${name} is not a boolean`], [1, `${name} is not a boolean`]] });
const ints = (name: string, values: number[], outside: number[]): Case => ({
  ok: values,
  bad: [...outside.map((v): [ParamValue, string] => [v, `Invalid ${name}`]), ['two', `${name} is not an integer`], [1.5, `${name} is not an integer`]],
});
const strings = (name: string, values: string[], outside: string[]): Case => ({
  ok: values,
  bad: [...outside.map((v): [ParamValue, string] => [v, `Invalid ${name}`]), [[1], `${name} is not a string`]],
});

const BOOLEANS = [
  'twenty_four_hour_time', 'starred_message_counts', 'receives_typing_notifications', 'web_suggest_update_timezone', 'fluid_layout_width',
  'high_contrast_mode', 'enable_drafts_synchronization', 'translate_emoticons', 'display_emoji_reaction_users', 'web_escape_navigates_to_home_view',
  'left_side_userlist', 'web_left_sidebar_unreads_count_summary', 'web_left_sidebar_show_channel_folders', 'web_inbox_show_channel_folders',
  'web_navigate_to_sent_message', 'hide_ai_features', 'enter_sends', 'enable_stream_desktop_notifications', 'enable_stream_email_notifications',
  'enable_stream_push_notifications', 'enable_stream_audible_notifications', 'enable_desktop_notifications', 'enable_sounds',
  'enable_offline_email_notifications', 'enable_offline_push_notifications', 'enable_online_push_notifications',
  'enable_followed_topic_desktop_notifications', 'enable_followed_topic_email_notifications', 'enable_followed_topic_push_notifications',
  'enable_followed_topic_audible_notifications', 'enable_followed_topic_wildcard_mentions_notify', 'enable_digest_emails', 'enable_login_emails',
  'enable_marketing_emails', 'message_content_in_email_notifications', 'pm_content_in_desktop_notifications', 'wildcard_mentions_notify',
  'automatically_follow_topics_where_mentioned', 'presence_enabled', 'send_private_typing_notifications', 'send_stream_typing_notifications',
  'send_read_receipts', 'allow_private_data_export',
];

const CASES: Record<string, Case> = {
  ...Object.fromEntries(BOOLEANS.map((n) => [n, bool(n)])),
  web_mark_read_on_scroll_policy: ints('web_mark_read_on_scroll_policy', [1, 2, 3], [0, 4]),
  // 3 exists, but the parameter allows only these (contract §2.3).
  web_channel_default_view: ints('web_channel_default_view', [1, 2, 4], [0, 3, 5]),
  color_scheme: ints('color_scheme', [1, 2, 3], [0, 4]),
  demote_inactive_streams: ints('demote_inactive_streams', [1, 2, 3], [0, 4]),
  user_list_style: ints('user_list_style', [1, 2, 3], [0, 4]),
  web_stream_unreads_count_display_policy: ints('web_stream_unreads_count_display_policy', [1, 2, 3], [0, 4]),
  desktop_icon_count_display: ints('desktop_icon_count_display', [1, 2, 3, 4], [0, 5]),
  realm_name_in_email_notifications_policy: ints('realm_name_in_email_notifications_policy', [1, 2, 3], [0, 4]),
  automatically_follow_topics_policy: ints('automatically_follow_topics_policy', [1, 2, 3, 4], [0, 5]),
  automatically_unmute_topics_in_muted_streams_policy: ints('automatically_unmute_topics_in_muted_streams_policy', [1, 2, 3, 4], [0, 5]),
  email_address_visibility: ints('email_address_visibility', [1, 2, 3, 4, 5], [0, 6]),
  web_font_size_px: ints('web_font_size_px', [8, 16, 48], [7, 49, 0]),
  web_line_height_percent: ints('web_line_height_percent', [80, 140, 300], [79, 301, -5]),
  email_notifications_batching_period_seconds: {
    ok: [1, 120, 604800],
    bad: [[0, 'Invalid email batching period: 0 seconds'], [604801, 'Invalid email batching period: 604801 seconds'], ['soon', 'email_notifications_batching_period_seconds is not an integer']],
  },
  default_language: strings('default_language', ['de', 'en-gb', 'en'], ['xx', 'EN', '']),
  web_home_view: { ...strings('web_home_view', ['recent', 'all_messages', 'inbox'], ['home', 'Inbox']), ok: ['recent', 'all_messages', 'inbox', 'recent_topics'] },
  emojiset: { ...strings('emojiset', ['twitter', 'text', 'google'], ['comic', 'apple']), ok: ['twitter', 'text', 'google', 'vendor_a', 'vendor_b'] },
  web_animate_image_previews: strings('web_animate_image_previews', ['always', 'never', 'on_hover'], ['sometimes']),
  resolved_topic_notice_auto_read_policy: strings('resolved_topic_notice_auto_read_policy', ['always', 'never', 'except_followed'], ['often']),
  notification_sound: { ok: ['ding', 'none', 'zulip'], bad: [['honk', "Invalid notification sound 'honk'"], [[1], 'notification_sound is not a string']] },
  timezone: { ok: ['Europe/Berlin', 'Asia/Calcutta', 'UTC', ''], bad: [['Mars/Olympus_Mons', 'Invalid timezone'], ['+02:00', 'Invalid timezone']] },
};

// Aliases are stored as the names they stand for.
const STORED: Record<string, string> = { recent_topics: 'recent', vendor_a: 'google', vendor_b: 'twitter' };

test('the table covers every setting the server has', async () => {
  const reg = assertSuccess(await server.as('hamlet').post('/register', { fetch_event_types: ['user_settings', 'realm_user_settings_defaults'] }));
  const names = Object.keys(reg.user_settings).filter((k) => k !== 'emojiset_choices' && k !== 'available_notification_sounds');
  assert.deepEqual(names.sort(), Object.keys(CASES).sort());
  const defaults = Object.keys(reg.realm_user_settings_defaults).filter((k) => k !== 'emojiset_choices' && k !== 'available_notification_sounds');
  assert.deepEqual(defaults.sort(), Object.keys(CASES).filter((n) => n !== 'timezone').sort(), 'every setting but the time zone has an organization default');
});

for (const [label, path, who, block] of [
  ['PATCH /settings', '/settings', 'cordelia', 'user_settings'],
  ['PATCH /realm/user_settings_defaults', '/realm/user_settings_defaults', 'iago', 'realm_user_settings_defaults'],
] as const) {
  test(`${label}: every setting takes its values and refuses others`, async () => {
    const me = server.as(who);
    for (const [name, c] of Object.entries(CASES)) {
      if (name === 'timezone' && block === 'realm_user_settings_defaults') continue;
      for (const value of c.ok) {
        assertSuccess(await me.patch(path, { [name]: value }));
        const state = assertSuccess(await me.post('/register', { fetch_event_types: [block] }))[block];
        assert.deepEqual(state[name], STORED[value as string] ?? value, `${name} = ${JSON.stringify(value)}`);
      }
      const kept = assertSuccess(await me.post('/register', { fetch_event_types: [block] }))[block][name];
      for (const [value, msg] of c.bad) assertError(await me.patch(path, { [name]: value }), 400, 'BAD_REQUEST', msg, { var_name: name });
      assert.deepEqual(assertSuccess(await me.post('/register', { fetch_event_types: [block] }))[block][name], kept, `${name} unchanged by refused values`);
    }
  });
}
