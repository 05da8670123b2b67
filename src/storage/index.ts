// Where uploaded bytes live: objects by key (`files/<path_id>`, `avatars/<realm>/<name>`, `emoji/<realm>/<name>`).
// Everything else (who owns what, who may read it) is in the database; this layer only stores bytes. The local
// disk is the one backend today; an S3-compatible store can implement the same interface.
import type { Readable } from 'node:stream';
import type { Config } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';

export { isValidKey } from './keys.js';

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

// The directory shared by every server process of an installation: the data directory unless set apart.
export const uploadsRoot = (config: Config) => config.uploadsDir ?? config.dataDir;

export function openStorage(config: Config): ObjectStorage {
  return new LocalDiskStorage(uploadsRoot(config));
}
