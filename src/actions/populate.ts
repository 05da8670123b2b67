// `parlance populate`: a deterministic organization of realistic shape for benchmarks, demos and tests (the
// plan: src/populate/). It is written as the actions write — the organization, its owner and members, and the
// channels by the usual actions; memberships and messages through the store's bulk paths, row for row what the
// subscribe and send paths leave (no events: nobody can be listening to an organization that does not exist
// yet).
//
// Rows (user_messages): a direct message has one for each participant, as when sent. A channel message has one
// for its sender, the first member (when subscribed), whom it mentions and the channel's three most active
// posters; the other subscribers are as if they had subscribed after it was sent (subscribing does not give
// rows for earlier messages; they read the channel's history without rows, as the API lets them). A row for
// every subscriber would be hundreds of millions for a million messages in channels of a thousand; this keeps
// the organization of the figures (1,000,000 messages, about 4 million rows) and what moving a topic
// to a large channel costs there.
import type { App } from '../app.js';
import { randomToken } from '../lib/secrets.js';
import { makePlan, type PopulateOptions } from '../populate/plan.js';
import { createChannel, createMembers, writePresences } from './populate-org.js';
import { writeMessages } from './populate-messages.js';
import { doCreateRealm } from './realms.js';

export interface Credential {
  email: string;
  api_key: string;
  user_id: number;
}

export interface PopulateResult {
  owner: Credential;
  members: Credential[]; // the first ten
  messages: number;
  seconds: number;
}

export async function doPopulate(app: App, options: PopulateOptions, progress: (line: string) => void = () => {}): Promise<PopulateResult> {
  const t0 = performance.now();
  const plan = makePlan(options);
  const [ownerPlan, ...memberPlans] = plan.users;
  // The owner's password is random: the API key is how to act as them (or `fetch_api_key` after a reset).
  const { realm, owner } = await doCreateRealm(app, { name: 'Parlance Populated', subdomain: '', owner: { ...ownerPlan, password: randomToken(16) } });
  const users = [owner, ...(await createMembers(app, realm, memberPlans))];
  progress(`${users.length} users`);
  const channelIds: number[] = [];
  for (const c of plan.channels) {
    channelIds.push(await createChannel(app, realm, owner, { name: c.name, description: c.description, inviteOnly: c.inviteOnly }, c.members.map((u) => users[u].id)));
  }
  progress(`${channelIds.length} channels`);
  await writePresences(app, realm, users.slice(0, options.activeUsers ?? 0));
  const total = options.messages + (plan.dmGroups.length ? options.unreadDms : 0);
  let reported = 0;
  const messages = await writeMessages(app, realm, plan, users, channelIds, (done) => {
    if (done - reported >= 100_000 || done === total) progress(`${(reported = done).toLocaleString('en')} / ${total.toLocaleString('en')} messages`);
  });
  const credential = (u: (typeof users)[number]): Credential => ({ email: u.email, api_key: u.apiKey, user_id: u.id });
  return { owner: credential(owner), members: users.slice(1, 11).map(credential), messages, seconds: Math.round((performance.now() - t0) / 100) / 10 };
}
