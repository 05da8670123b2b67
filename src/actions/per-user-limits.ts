// How many of the records only their owner sees one user may keep: drafts, saved snippets, navigation views,
// alert words, scheduled messages and reminders waiting to be sent. The reference server bounds none of these
// counts; without a bound one member could fill the database a request at a time. The count is read in the
// transaction that adds, so concurrent requests may overshoot by a few, never without bound.
import { ApiError } from '../lib/errors.js';

export const PER_USER_LIMIT = 1000;

export function checkRoom(have: number, adding: number, what: string): void {
  if (adding > 0 && have + adding > PER_USER_LIMIT) throw new ApiError(`You may keep at most ${PER_USER_LIMIT} ${what}.`);
}
