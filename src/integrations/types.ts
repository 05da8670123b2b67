// What every integration module exports: how a third-party tool's request (payload and headers) becomes the
// messages to post. Handlers are pure: they read, format and return; sending and checks are the action's
// (src/actions/incoming-webhooks.ts).
import { ApiError } from '../lib/errors.js';

export interface HookRequest {
  payload: any;
  header(name: string): string | undefined;
  // A URL parameter of the request (`branches`, Alertmanager's `name`/`desc`, ...).
  param(name: string): string | undefined;
  // The URL names a topic: every message goes there, so messages name what the topic would have (GitHub
  // adds the PR or issue title).
  userTopic: boolean;
}

// One message: its topic and Markdown content; `event` is the event kind that only_events/exclude_events match.
export interface HookMessage {
  topic: string;
  content: string;
  event: string;
}

export interface Integration {
  name: string; // the URL segment: /api/v1/external/<name>
  displayName: string;
  // The header naming the event kind, if the tool sends one.
  eventHeader?: string;
  // What the administrators' page lists.
  events: readonly string[];
  extraParams?: string;
  // [] means the event is known and deliberately posts nothing.
  handle(req: HookRequest): HookMessage[];
}

// An event kind the tool sends but the integration does not post: the reference answers 200 with this error.
export class UnsupportedEventError extends ApiError {
  constructor(webhookName: string, eventType: string) {
    super(`The '${eventType}' event isn't currently supported by the ${webhookName} webhook; ignoring`, 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', 200, {
      webhook_name: webhookName,
      event_type: eventType,
    });
  }
}

// A payload without the fields its event has (not from that tool, or a format it does not send).
export class AnomalousPayloadError extends ApiError {
  constructor(webhookName: string) {
    super(`Unable to parse request: Did ${webhookName} generate this event?`, 'ANOMALOUS_WEBHOOK_PAYLOAD', 400, { webhook_name: webhookName });
  }
}

export class PayloadFieldError extends Error {}

// Typed reads that fail as a malformed payload rather than as a crash.
export function text(v: unknown, what = 'field'): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw new PayloadFieldError(`${what} is not a string`);
}
export function num(v: unknown, what = 'field'): number {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  throw new PayloadFieldError(`${what} is not a number`);
}
export const optText = (v: unknown): string | null => (v === null || v === undefined ? null : text(v));
export const obj = (v: unknown): Record<string, any> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, any>) : {});
export const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
