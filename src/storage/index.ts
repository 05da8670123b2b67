// Where uploaded bytes live: objects by key (`files/<path_id>`, `avatars/<realm>/<name>`, `emoji/<realm>/<name>`).
// Everything else (who owns what, who may read it) is in the database; this layer only stores bytes. The local
// disk is the one backend today; an S3-compatible store can implement the same interface.
import type { Config } from '../config.js';
import { LocalDiskStorage } from './local-disk.js';
import type { ObjectStorage } from './object-storage.js';

export { isValidKey } from './keys.js';

export type { ByteRange, ObjectStorage, StoredObject } from './object-storage.js';

// The directory shared by every server process of an installation: the data directory unless set apart.
export const uploadsRoot = (config: Config) => config.uploadsDir ?? config.dataDir;

export function openStorage(config: Config): ObjectStorage {
  return new LocalDiskStorage(uploadsRoot(config));
}
