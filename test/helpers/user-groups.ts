// A started server with its system groups, and the user-group requests the group tests share.
import { before, after } from 'node:test';
import { startTestServer, type SeedName, type TestServer } from './server.js';
import { assertError, assertSuccess } from './assertions.js';
import { assertMatchesSchema } from './openapi.js';
import type { Reply } from './client.js';

export function groupTestServer() {
  const t = {} as {
    server: TestServer;
    system: Record<string, number>;
    id(name: SeedName): number;
    create(as: SeedName, extra?: Record<string, unknown>): Promise<Reply>;
    created(as: SeedName, extra?: Record<string, unknown>): Promise<number>;
    members(group: number, direct?: boolean): Promise<number[]>;
  };
  let n = 0;
  before(async () => {
    t.server = await startTestServer();
    const groups = (await t.server.as('iago').get('/user_groups')).body.user_groups as { id: number; name: string }[];
    t.system = Object.fromEntries(groups.map((g) => [g.name, g.id]));
  });
  after(() => t.server.close());
  t.id = (name) => t.server.users[name].id;
  t.create = (as, extra = {}) => t.server.as(as).post('/user_groups/create', { name: `Group ${++n}`, description: 'A group', members: [t.id('hamlet')], ...extra });
  t.created = async (as, extra = {}) => {
    const res = await t.create(as, extra);
    assertMatchesSchema('/user_groups/create', 'post', assertSuccess(res));
    return res.body.group_id;
  };
  t.members = async (group, direct = true) => (await t.server.as('hamlet').get(`/user_groups/${group}/members`, { direct_member_only: direct })).body.members;
  return t;
}

export const refused = (res: Reply, msg: string, code = 'BAD_REQUEST') => assertError(res, 400, code, msg);
