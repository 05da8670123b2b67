// Markdown outside messages (channel and folder descriptions, profile fields): the message renderer without
// mentions, channel links or previews, as the reference renders descriptions.
import { renderMessage } from './message.js';

export function renderMarkdown(source: string): string {
  return source
    ? renderMessage(source, { usersByName: new Map(), usersById: new Map(), groupsByName: new Map(), channelsByName: new Map(), imagePreviews: false }).html
    : '';
}
