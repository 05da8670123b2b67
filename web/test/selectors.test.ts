// Derived views: presence judged by the server's clock, and which topics count as muted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { presenceOf, topicMuted } from '../src/data/selectors';
import { topicKey } from '../src/data/narrow';
import type { Subscription } from '../src/api/types';

test('presence: active, idle and offline by the server clock, whatever the browser clock says', () => {
  const realm = { offlineThresholdSeconds: 140 } as never;
  const presence = new Map([[1, { active_timestamp: 1000, idle_timestamp: 1000 }], [2, { active_timestamp: 700, idle_timestamp: 1000 }], [3, { active_timestamp: 100, idle_timestamp: 100 }]]);
  // The browser's clock is an hour behind the server's.
  const s = { presence, realm, clockOffset: 3600 };
  const local = 1050 - 3600;
  assert.equal(presenceOf(s, 1, local), 'active');
  assert.equal(presenceOf(s, 2, local), 'idle');
  assert.equal(presenceOf(s, 3, local), 'offline');
  assert.equal(presenceOf(s, 4, local), 'offline', 'no presence at all');
  assert.equal(presenceOf(s, 1, local + 200), 'offline', 'too long ago');
});

test('muting: a muted topic, a muted channel, and topics unmuted or followed in a muted channel', () => {
  const sub = (is_muted: boolean) => ({ stream_id: 5, is_muted } as Subscription);
  const policies = new Map([[topicKey(5, 'noise'), 1], [topicKey(5, 'signal'), 2], [topicKey(5, 'watch'), 3]]);
  assert.equal(topicMuted(new Map([[5, sub(false)]]), policies, 5, 'Noise'), true);
  assert.equal(topicMuted(new Map([[5, sub(false)]]), policies, 5, 'other'), false);
  assert.equal(topicMuted(new Map([[5, sub(true)]]), policies, 5, 'other'), true);
  assert.equal(topicMuted(new Map([[5, sub(true)]]), policies, 5, 'signal'), false);
  assert.equal(topicMuted(new Map([[5, sub(true)]]), policies, 5, 'watch'), false);
});
