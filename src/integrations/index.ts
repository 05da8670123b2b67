// The integrations that /api/v1/external/{integration} serves, by URL name.
import type { Integration } from './types.js';
import { github } from './github.js';
import { slackIncoming } from './slack-incoming.js';
import { gitlab } from './gitlab.js';
import { alertmanager, grafana } from './alerts.js';
import { jira, sentry } from './monitoring.js';

export const INTEGRATIONS: ReadonlyMap<string, Integration> = new Map([github, gitlab, alertmanager, grafana, sentry, jira, slackIncoming].map((i) => [i.name, i]));
