// POST /invites/multiuse, GET /invites and DELETE /invites/multiuse/{id}: every rule per role and organization
// setting, and the invites_changed events with their recipients.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type SeedName, type TestServer } from './helpers/server.js';
import type { ParamValue } from './helpers/client.js';
import { Listeners } from './helpers/events.js';
import { assertError, assertSuccess } from './helpers/assertions.js';
import { assertMatchesSchema } from './helpers/openapi.js';
import { createChannel } from './helpers/messages.js';
import { withDb } from './helpers/direct-db.js';

let server: TestServer;
let groups: Map<string, number>;
let denmark: number; // public; hamlet and cordelia subscribed
let verona: number; // private; iago subscribed
let lobby: number; // a default channel
before(async () => {
  server = await startTestServer({ env: { PARLANCE_INVITATION_LINK_VALIDITY_MINUTES: '60' } });
  const res = await server.as('iago').post('/register', { fetch_event_types: ['realm_user_groups'] });
  groups = new Map(res.body.realm_user_groups.map((g: { name: string; id: number }) => [g.name, g.id]));
  denmark = await createChannel(server, 'hamlet', ['hamlet', 'cordelia']);
  verona = await createChannel(server, 'iago', ['iago'], { invite_only: true });
  lobby = await createChannel(server, 'iago', ['iago'], { is_default_stream: true });
});
after(() => server.close());

const create = (as: SeedName, params: Record<string, ParamValue> = {}) => server.as(as).post('/invites/multiuse', params);

async function setGroupSetting(name: string, group: string): Promise<void> {
  assertSuccess(await server.as('desdemona').patch('/realm', { [name]: { new: groups.get(group)! } }));
}

async function invites(as: SeedName): Promise<Record<string, any>[]> {
  const res = await server.as(as).get('/invites');
  assertMatchesSchema('/invites', 'get', assertSuccess(res));
  return res.body.invites;
}

// The id of the link with this URL, as its creator sees it.
async function linkId(as: SeedName, link: string): Promise<number> {
  const found = (await invites(as)).find((i) => i.link_url === link);
  assert.ok(found, `${link} not listed for ${as}`);
  return found.id;
}

const forbiddenFor = { polonius: 'Not allowed for guest users', bot: 'This endpoint does not accept bot requests.' };

describe('creating a link', () => {
  test('administrators by default; the organization setting decides who else; never guests or bots', async () => {
    for (const who of ['desdemona', 'iago'] as const) {
      const body = assertSuccess(await create(who));
      assert.match(body.invite_link, new RegExp(`^${server.url}/join/[A-Za-z0-9]{24}/$`));
    }
    for (const who of ['shiva', 'hamlet', 'cordelia'] as const) assertError(await create(who), 400, 'BAD_REQUEST', 'Insufficient permission');
    for (const [who, msg] of Object.entries(forbiddenFor)) assertError(await create(who as SeedName), 400, 'BAD_REQUEST', msg);

    await setGroupSetting('create_multiuse_invite_group', 'role:moderators');
    assertSuccess(await create('shiva'));
    assertError(await create('hamlet'), 400, 'BAD_REQUEST', 'Insufficient permission');
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    assertSuccess(await create('shiva'));
    assertSuccess(await create('hamlet'));
    for (const [who, msg] of Object.entries(forbiddenFor)) assertError(await create(who as SeedName), 400, 'BAD_REQUEST', msg);
    // Anonymous group settings work too: one member named directly.
    assertSuccess(await server.as('desdemona').patch('/realm', { create_multiuse_invite_group: { new: { direct_members: [server.users.cordelia.id], direct_subgroups: [] } } }));
    assertSuccess(await create('cordelia'));
    assertError(await create('hamlet'), 400, 'BAD_REQUEST', 'Insufficient permission');
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });

  test('invite_as: the caller\'s own role or a more restricted one; owners alone invite owners', async () => {
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    const ownerOnly = ['Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'];
    const adminOnly = ['Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL'];
    const expected: Record<string, (string[] | null)[]> = {
      // invite_as:   100        200        300        400   600
      desdemona: [null, null, null, null, null],
      iago: [ownerOnly, null, null, null, null],
      shiva: [ownerOnly, adminOnly, null, null, null],
      hamlet: [ownerOnly, adminOnly, adminOnly, null, null],
    };
    for (const [who, outcomes] of Object.entries(expected)) {
      for (const [i, role] of [100, 200, 300, 400, 600].entries()) {
        const res = await create(who as SeedName, { invite_as: role });
        const outcome = outcomes[i];
        if (outcome === null) {
          assertSuccess(res);
          const listed = (await invites(who as SeedName)).find((inv) => inv.link_url === res.body.invite_link);
          assert.equal(listed?.invited_as, role);
        } else assertError(res, 400, outcome[1], outcome[0]);
      }
    }
    assertError(await create('iago', { invite_as: 500 }), 400, 'BAD_REQUEST', 'Invalid invite_as');
    assertError(await create('iago', { invite_as: 'admin' }), 400, 'BAD_REQUEST', 'invite_as is not an integer');
    // Member is the default role.
    const link = assertSuccess(await create('hamlet')).invite_link;
    assert.equal((await invites('hamlet')).find((i) => i.link_url === link)?.invited_as, 400);
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });

  test('expiry: the server default when absent, minutes when given, never when null', async () => {
    const expiryOf = async (params: Record<string, ParamValue>) => {
      const link = assertSuccess(await create('iago', params)).invite_link;
      const invite = (await invites('iago')).find((i) => i.link_url === link)!;
      return invite.expiry_date === null ? null : invite.expiry_date - invite.invited;
    };
    assert.equal(await expiryOf({}), 60 * 60); // PARLANCE_INVITATION_LINK_VALIDITY_MINUTES of this server
    assert.equal(await expiryOf({ invite_expires_in_minutes: 30 }), 30 * 60);
    assert.equal(await expiryOf({ invite_expires_in_minutes: 14400 }), 14400 * 60);
    assert.equal(await expiryOf({ invite_expires_in_minutes: 'null' }), null);
    for (const bad of [0, -5]) assertError(await create('iago', { invite_expires_in_minutes: bad }), 400, 'BAD_REQUEST', 'Invalid invite_expires_in_minutes');
    assert.equal((await create('iago', { invite_expires_in_minutes: 'soon' })).status, 400);
  });

  test('channels: visible ones only, and only those the caller may add subscribers to, or default channels', async () => {
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    assertSuccess(await create('iago', { stream_ids: [denmark, verona, lobby] }));
    assertSuccess(await create('hamlet', { stream_ids: [denmark, lobby] }));
    // Private and not subscribed: answered like a missing channel.
    for (const id of [verona, 999999, 2 ** 40]) {
      assertError(await create('hamlet', { stream_ids: [denmark, id] }), 400, 'BAD_REQUEST', `Invalid channel ID ${id}. No invites were sent.`);
    }
    const archived = await createChannel(server, 'iago', ['iago', 'hamlet']);
    assertSuccess(await server.as('iago').delete(`/streams/${archived}`));
    assertError(await create('iago', { stream_ids: [archived] }), 400, 'BAD_REQUEST', `Invalid channel ID ${archived}. No invites were sent.`);

    // Without the right to add subscribers, only default channels (and channels one administers) may be offered.
    const elsinore = await createChannel(server, 'iago', ['iago', 'hamlet']);
    await setGroupSetting('can_add_subscribers_group', 'role:administrators');
    assertError(await create('hamlet', { stream_ids: [elsinore] }), 400, 'BAD_REQUEST', 'You do not have permission to subscribe other users to channels.');
    assertError(await create('hamlet', { stream_ids: [lobby, elsinore] }), 400, 'BAD_REQUEST', 'You do not have permission to subscribe other users to channels.');
    assertSuccess(await create('hamlet', { stream_ids: [lobby] }));
    assertSuccess(await create('hamlet', { stream_ids: [denmark] })); // his own channel
    assertSuccess(await create('hamlet', { stream_ids: [] }));
    assertSuccess(await create('iago', { stream_ids: [elsinore] }));
    // The channel's own can_add_subscribers_group grants it as well.
    assertSuccess(await server.as('iago').patch(`/streams/${elsinore}`, { can_add_subscribers_group: { new: groups.get('role:members')! } }));
    assertSuccess(await create('hamlet', { stream_ids: [elsinore] }));
    await setGroupSetting('can_add_subscribers_group', 'role:members');
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });

  test('groups: only those the caller may add members to', async () => {
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    const made = await server.as('hamlet').post('/user_groups/create', { name: 'Players', description: '', members: [server.users.hamlet.id] });
    assertSuccess(made);
    const players = made.body.group_id as number;
    assertSuccess(await create('hamlet', { group_ids: [players] }));
    // Groups are managed by their creator here; owners may manage every group.
    assertSuccess(await create('desdemona', { group_ids: [players] }));
    assertError(await create('cordelia', { group_ids: [players] }), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await create('iago', { group_ids: [players] }), 400, 'BAD_REQUEST', 'Insufficient permission');
    assertError(await create('hamlet', { group_ids: [groups.get('role:members')!] }), 400, 'BAD_REQUEST', 'Insufficient permission');
    for (const id of [999999, 2 ** 40]) assertError(await create('hamlet', { group_ids: [id] }), 400, 'BAD_REQUEST', 'Invalid user group');
    // Lear's organization's groups are not this one's.
    const lears = (await server.as('lear').post('/register', { fetch_event_types: ['realm_user_groups'] })).body.realm_user_groups[0].id;
    assertError(await create('desdemona', { group_ids: [lears] }), 400, 'BAD_REQUEST', 'Invalid user group');
    // Cordelia may once the group lets her add members.
    assertSuccess(await server.as('hamlet').patch(`/user_groups/${players}`, { can_add_members_group: { new: { direct_members: [server.users.cordelia.id], direct_subgroups: [] } } }));
    assertSuccess(await create('cordelia', { group_ids: [players] }));
    assertSuccess(await server.as('hamlet').post(`/user_groups/${players}/deactivate`));
    assertError(await create('hamlet', { group_ids: [players] }), 400, 'BAD_REQUEST', 'User group is deactivated.');
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });

  test('welcome_message_custom_text: at most 8000 code points', async () => {
    assertSuccess(await create('iago', { welcome_message_custom_text: '😀'.repeat(8000) }));
    assertError(await create('iago', { welcome_message_custom_text: 'x'.repeat(8001) }), 400, 'BAD_REQUEST', 'welcome_message_custom_text is too long (limit: 8000 characters)');
  });
});

describe('listing and revoking', () => {
  test('administrators see every live link, others their own; guests and bots none', async () => {
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    const mine = assertSuccess(await create('hamlet', { invite_expires_in_minutes: 'null' })).invite_link;
    const cordelias = assertSuccess(await create('cordelia')).invite_link;
    const hamlets = await invites('hamlet');
    assert.ok(hamlets.length > 0);
    assert.ok(hamlets.every((i) => i.invited_by_user_id === server.users.hamlet.id));
    assert.ok(!hamlets.some((i) => i.link_url === cordelias));
    const entry = hamlets.find((i) => i.link_url === mine)!;
    assert.deepEqual(Object.keys(entry).sort(), ['expiry_date', 'id', 'invited', 'invited_as', 'invited_by_user_id', 'is_multiuse', 'link_url']);
    assert.deepEqual([entry.is_multiuse, entry.expiry_date, entry.invited_as], [true, null, 400]);
    assert.ok(Math.abs(entry.invited - Date.now() / 1000) < 60);
    for (const admin of ['iago', 'desdemona'] as const) {
      const all = (await invites(admin)).map((i) => i.link_url);
      assert.ok(all.includes(mine) && all.includes(cordelias));
    }
    for (const [who, msg] of Object.entries(forbiddenFor)) assertError(await server.as(who as SeedName).get('/invites'), 400, 'BAD_REQUEST', msg);
    // Nothing of another organization.
    const lears = assertSuccess(await server.as('lear').post('/invites/multiuse')).invite_link;
    assert.ok(!(await invites('iago')).some((i) => i.link_url === lears));
    assert.ok((await server.as('lear').get('/invites')).body.invites.some((i: { link_url: string }) => i.link_url === lears));

    // Expired links are no longer listed.
    const id = await linkId('cordelia', cordelias);
    await withDb(server, (db) => db.updateTable('multiuse_invites').set({ expiry: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', id).execute());
    assert.ok(!(await invites('cordelia')).some((i) => i.link_url === cordelias));
    assert.ok(!(await invites('iago')).some((i) => i.link_url === cordelias));
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });

  test('creating and revoking tell administrators and the creator', async () => {
    await setGroupSetting('create_multiuse_invite_group', 'role:members');
    const everyone: SeedName[] = ['desdemona', 'iago', 'shiva', 'hamlet', 'cordelia', 'polonius'];
    const l = await Listeners.open(server, everyone);
    // Who got invites_changed; `creator`, always told, is waited for first.
    const receivedBy = async (creator?: SeedName) => {
      const got = new Map<SeedName, Record<string, any>[]>();
      if (creator) got.set(creator, await l.waitFor(creator, 'invites_changed'));
      for (const who of everyone) if (who !== creator) got.set(who, await l.take(who, 'invites_changed'));
      for (const events of got.values()) for (const e of events) assert.deepEqual(Object.keys(e).sort(), ['id', 'type']);
      return everyone.filter((who) => got.get(who)!.length);
    };
    const link = assertSuccess(await create('hamlet')).invite_link;
    assert.deepEqual(await receivedBy('hamlet'), ['desdemona', 'iago', 'hamlet']);
    const id = await linkId('hamlet', link);

    for (const who of ['cordelia', 'shiva'] as const) {
      assertError(await server.as(who).delete(`/invites/multiuse/${id}`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    for (const [who, msg] of Object.entries(forbiddenFor)) assertError(await server.as(who as SeedName).delete(`/invites/multiuse/${id}`), 400, 'BAD_REQUEST', msg);
    assert.deepEqual(await receivedBy(), []);
    assertSuccess(await server.as('hamlet').delete(`/invites/multiuse/${id}`));
    assert.deepEqual(await receivedBy('hamlet'), ['desdemona', 'iago', 'hamlet']);
    assert.ok(!(await invites('hamlet')).some((i) => i.id === id));
    assertError(await server.as('hamlet').delete(`/invites/multiuse/${id}`), 400, 'BAD_REQUEST', 'Invitation has already been revoked');

    // An administrator may revoke anyone's link; the creator hears of it.
    const cordelias = await linkId('cordelia', assertSuccess(await create('cordelia')).invite_link);
    await receivedBy('cordelia');
    assertSuccess(await server.as('iago').delete(`/invites/multiuse/${cordelias}`));
    assert.deepEqual(await receivedBy('cordelia'), ['desdemona', 'iago', 'cordelia']);

    // Links for owners: only owners may revoke them, unless they made the link themselves.
    const ownerLink = await linkId('desdemona', assertSuccess(await create('desdemona', { invite_as: 100 })).invite_link);
    assertError(await server.as('iago').delete(`/invites/multiuse/${ownerLink}`), 400, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    assertSuccess(await server.as('desdemona').delete(`/invites/multiuse/${ownerLink}`));
    const iagos = await linkId('iago', assertSuccess(await create('iago', { invite_as: 200 })).invite_link);
    assertSuccess(await server.as('desdemona').delete(`/invites/multiuse/${iagos}`));

    for (const missing of [999999, 2 ** 40]) assertError(await server.as('iago').delete(`/invites/multiuse/${missing}`), 400, 'BAD_REQUEST', 'No such invitation');
    const lears = (await server.as('lear').get('/invites')).body.invites[0].id;
    assertError(await server.as('desdemona').delete(`/invites/multiuse/${lears}`), 400, 'BAD_REQUEST', 'No such invitation');
    await setGroupSetting('create_multiuse_invite_group', 'role:administrators');
  });
});
