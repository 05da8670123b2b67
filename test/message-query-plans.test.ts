// The query plans of GET /messages: every narrow walks one index and stops at its limit — no scan of a whole
// channel or of a user's whole history, no sort of everything that matched. The narrows are resolved as the
// server resolves them (src/actions/messages-fetch.ts) and their SQL asked of the server's own database.
// SQLite's plans are exact (the queries name their index). PostgreSQL's planner chooses by statistics, which a
// small test database cannot give; there the test checks that each query can be answered from indexes alone
// (sequential scans and sorts priced out) with the index the narrow is meant to walk.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from './helpers/server.js';
import { createChannel, sendDm, sendToChannel } from './helpers/messages.js';
import { parseNarrow, readerOf, resolveNarrow } from '../src/actions/messages-fetch.js';
import { compileWindowQuery } from '../src/store/message-query.js';
import { findRealmBySubdomain } from '../src/store/realms.js';
import { findUser } from '../src/store/users.js';
import { realmFakeEmailDomain } from '../src/format/users.js';
import type { App } from '../src/app.js';

let server: TestServer;
let open: number; // public, hamlet subscribed
let closed: number; // private with protected history, hamlet subscribed after its first message

before(async () => {
  server = await startTestServer();
  open = await createChannel(server, 'iago', ['hamlet', 'iago']);
  await createChannel(server, 'iago', ['iago']); // so that channels:public names two
  closed = await createChannel(server, 'iago', ['iago', 'cordelia'], { invite_only: true, history_public_to_subscribers: false });
  await sendToChannel(server, 'iago', open, 'lunch', 'see https://example.com/menu.png');
  await sendToChannel(server, 'iago', closed, 'plans', 'secret');
  await server.as('iago').post('/users/me/subscriptions', { subscriptions: [{ name: (await server.as('iago').get(`/streams/${closed}`)).body.stream.name }], principals: [server.users.hamlet.id] });
  await sendDm(server, 'cordelia', ['hamlet'], 'hello');
  // Bulk history in another channel, which hamlet has read, so that every narrow above is sparse in the user's
  // history: PostgreSQL's planner, given these statistics, must walk the narrow's own index.
  const filler = await createChannel(server, 'desdemona', ['hamlet', 'desdemona']);
  await sendToChannel(server, 'desdemona', filler, 'filler', 'x');
  await server.withApp(async (app) => {
    const series = app.dialect === 'postgres'
      ? sql`generate_series(1, ${FILLER}) as n(i)`
      : sql`(with recursive n(i) as (select 1 union all select i + 1 from n where i < ${FILLER}) select i from n) as n`;
    await sql`insert into messages (realm_id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent)
      select realm_id, sender_id, recipient_id, stream_id, topic, topic_key, content, rendered_content, date_sent
      from ${series} cross join (select * from messages where stream_id = ${filler} limit 1) as m`.execute(app.db);
    await sql`insert into user_messages (user_id, message_id, flags)
      select ${server.users.hamlet.id}, id, 1 from messages where stream_id = ${filler} and id not in (select message_id from user_messages where user_id = ${server.users.hamlet.id})`.execute(app.db);
    await sql`analyze`.execute(app.db);
  });
});
const FILLER = 20_000;
after(() => server.close());

// Each narrow (as hamlet), and the index its query must walk: SQLite's name for it (the plan's first line), and
// PostgreSQL's where it differs.
// On PostgreSQL, a narrow that most of the user's history matches may as well walk messages by id.
const UM_KEY = { sqlite: 'PRIMARY KEY', postgres: 'Backward using' };
const FTS = { sqlite: 'VIRTUAL TABLE', postgres: 'message_search' };
const narrows = (): [string, unknown[], string | { sqlite: string; postgres: string }][] => {
  const u = server.users;
  return [
    ['everything', [], UM_KEY],
    ['channel', [['channel', open]], 'messages_recipient'],
    ['channel, protected history', [['channel', closed]], 'messages_recipient'],
    ['topic', [['channel', open], ['topic', 'lunch']], 'messages_stream_topic'],
    ['topic, protected history', [['channel', closed], ['topic', 'plans']], 'messages_stream_topic'],
    ['sender', [['sender', u.iago.id]], 'messages_sender'],
    ['channel and sender', [['channel', open], ['sender', u.iago.id]], 'messages_sender'],
    ['dm', [['dm', [u.cordelia.id]]], 'messages_recipient'],
    ['dm-including', [['dm-including', u.cordelia.id]], 'user_messages_private'],
    ['is:dm', [['is', 'dm']], 'user_messages_private'],
    ...['starred', 'mentioned', 'unread', 'alerted'].map((w): [string, unknown[], string] => [`is:${w}`, [['is', w]], `user_messages_${w}`]),
    ['is:resolved', [['is', 'resolved']], 'messages_resolved_realm'],
    ...['link', 'image', 'attachment'].map((w): [string, unknown[], string] => [`has:${w}`, [['has', w]], `messages_${w}_realm`]),
    ['channel and is:unread', [['channel', open], ['is', 'unread']], 'user_messages_unread'],
    ['channel and has:image', [['channel', open], ['has', 'image']], 'messages_image_recipient'],
    ['channel and is:resolved', [['channel', open], ['is', 'resolved']], 'messages_resolved_recipient'],
    ['search', [['search', 'menu']], FTS],
    ['channel and search with a phrase', [['channel', open], ['search', '"see https"']], FTS],
    ['channels:public', [['channels', 'public']], { sqlite: 'messages_realm', postgres: 'Backward using' }],
    ['id', [['id', 1]], { sqlite: 'INTEGER PRIMARY KEY', postgres: 'messages_pkey' }],
    ['not a channel', [{ operator: 'channel', operand: open, negated: true }], UM_KEY],
    ['not starred in a channel', [['channel', open], { operator: 'is', operand: 'starred', negated: true }], 'messages_recipient'],
  ];
};

async function planOf(app: App, narrow: unknown[]): Promise<string[]> {
  const realm = (await findRealmBySubdomain(app.db, ''))!;
  const user = (await findUser(app.db, realm.id, server.users.hamlet.id))!;
  const { terms, scope } = await resolveNarrow(app.db, realm, await readerOf(app.db, user), parseNarrow(narrow), realmFakeEmailDomain(app, realm));
  const q = compileWindowQuery(app.db, realm.id, user.id, scope, terms, 2 ** 31 - 1, 100);
  if (app.dialect === 'sqlite') {
    const explained = await app.db.executeQuery<{ detail: string }>({ ...q, sql: `explain query plan ${q.sql}` });
    return explained.rows.map((r) => r.detail);
  }
  return app.db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    await sql`set local enable_sort = off`.execute(tx);
    const explained = await tx.executeQuery<{ 'QUERY PLAN': string }>({ ...q, sql: `explain ${q.sql}` });
    return explained.rows.map((r) => r['QUERY PLAN']);
  });
}

// What is wrong with a plan: it walks another index first, scans a whole table, or sorts what matched.
function problems(dialect: 'sqlite' | 'postgres', plan: string[], index: string): string[] {
  if (dialect === 'sqlite') {
    const wrong = plan.filter((l) => /^SCAN (m|um)\b/.test(l) || /TEMP B-TREE/.test(l));
    if (!plan[0]?.includes(index)) wrong.push(`walks ${plan[0]}, not ${index}`);
    return wrong;
  }
  const wrong = plan.filter((l) => /Seq Scan on (messages|user_messages)|^\s*(->\s*)?Sort\b/.test(l));
  if (!plan.some((l) => l.includes(index))) wrong.push(`does not use ${index}`);
  return wrong;
}

test('every narrow walks its index to its limit: no other index first, no full scan, no sort', async () => {
  await server.withApp(async (app) => {
    const failures: string[] = [];
    for (const [label, narrow, expected] of narrows()) {
      const index = typeof expected === 'string' ? expected : expected[app.dialect];
      const plan = await planOf(app, narrow);
      if (problems(app.dialect, plan, index).length) failures.push(`${label} (${index}):\n    ${plan.join('\n    ')}`);
    }
    assert.deepEqual(failures, []);
  });
});
