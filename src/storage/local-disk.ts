// Objects as files under one directory, which several server processes may share. A write goes to a temporary
// file beside its target, is flushed to disk and renamed over it, so a crash leaves the old object or the new
// one, never a torn file.
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, ObjectStorage, StoredObject } from './object-storage.js';
import { checkKey } from './keys.js';

const missing = (err: unknown) => ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

export class LocalDiskStorage implements ObjectStorage {
  constructor(readonly root: string) {}

  private file(key: string): string {
    const root = path.resolve(this.root);
    const file = path.resolve(root, checkKey(key));
    if (!file.startsWith(root + path.sep)) throw new Error(`storage key ${JSON.stringify(key)} leaves the store`);
    return file;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.file(key);
    const temp = await this.tempBeside(target);
    try {
      const handle = await fs.open(temp, 'wx');
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await this.commit(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async adopt(key: string, localPath: string): Promise<void> {
    const target = this.file(key);
    const handle = await fs.open(localPath, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await this.commit(localPath, target);
    } catch (err) {
      // Another file system: copy through a temporary file instead.
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      await this.put(key, await fs.readFile(localPath));
      await fs.rm(localPath, { force: true });
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async stream(key: string, range?: ByteRange): Promise<Readable | null> {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.file(key), 'r');
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const s = await fs.stat(this.file(key));
      return s.isFile() ? { size: s.size } : null;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.file(key);
    await fs.rm(file, { force: true });
    // An upload's key ends in a directory of its own (files/<realm>/<xx>/<random>/<name>); remove it once empty.
    // Shallower directories are shared, and removing them could race with another process writing into them.
    if (key.split('/').length >= 5) await fs.rmdir(path.dirname(file)).catch(() => {});
  }

  private async tempBeside(target: string): Promise<string> {
    await fs.mkdir(path.dirname(target), { recursive: true });
    return `${target}.${crypto.randomBytes(6).toString('hex')}.tmp`;
  }

  // The rename is made durable by flushing the directory that holds the new name.
  private async commit(from: string, target: string): Promise<void> {
    await fs.rename(from, target);
    const dir = await fs.open(path.dirname(target), 'r');
    try {
      await dir.sync();
    } catch {
      // Some file systems cannot flush a directory; the rename itself still happened.
    } finally {
      await dir.close();
    }
  }
}
