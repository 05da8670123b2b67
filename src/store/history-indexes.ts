// The partial indexes of message history (created by migrations/027-history-indexes.ts): their names and
// predicates, which the queries of src/store/message-query.ts repeat exactly, as both databases require of a
// query that is to use a partial index.

// A direct message's rows carry this internal bit, as the reference's is_private flag; clients never see it.
export const PRIVATE_BIT = 256;
export const USER_ROW_INDEXES = {
  unread: ['user_messages_unread', '(flags & 1) = 0'],
  starred: ['user_messages_starred', '(flags & 2) <> 0'],
  mentioned: ['user_messages_mentioned', '(flags & 56) <> 0'],
  alerted: ['user_messages_alerted', '(flags & 64) <> 0'],
  dm: ['user_messages_private', `(flags & ${PRIVATE_BIT}) <> 0`],
} as const;
export const MESSAGE_FACT_INDEXES = {
  link: 'has_link = 1',
  image: 'has_image = 1',
  attachment: 'has_attachment = 1',
  resolved: "topic like '✔ %'",
} as const;

