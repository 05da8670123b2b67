// The integrations that /api/v1/external/{integration} serves, by URL name.
import type { Integration } from './types.js';
import { github } from './github.js';
import { slackIncoming } from './slack-incoming.js';

export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map([github, slackIncoming].map((i) => [i.name, i]));
