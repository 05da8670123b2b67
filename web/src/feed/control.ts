// The message view the keyboard acts on (one at a time): set by FeedView while it is shown.
import type { Message } from '../api/types';
import type { Term } from '../data/narrow';

export interface FeedControl {
  terms: Term[];
  selected(): Message | undefined;
  move(delta: number | 'first' | 'last'): void;
  lastOwn(): Message | undefined;
}

export const feedControl: { current: FeedControl | null } = { current: null };
