// What a storage backend implements (local-disk.ts today). Apart from index.ts, which picks the backend, so
// that a backend and the index do not import each other.
import type { Readable } from 'node:stream';

export interface StoredObject {
  size: number;
}

export interface ByteRange {
  start: number;
  end: number; // inclusive, as in HTTP ranges
}

export interface ObjectStorage {
  // Writes replace an existing object atomically: a reader sees the old bytes or the new ones, never a mix.
  put(key: string, data: Buffer): Promise<void>;
  // Takes over a finished file on the local disk (a completed resumable upload); the file is gone afterwards.
  adopt(key: string, localPath: string): Promise<void>;
  get(key: string): Promise<Buffer | null>;
  stream(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<StoredObject | null>;
  // Deleting a missing object is not an error.
  delete(key: string): Promise<void>;
}
