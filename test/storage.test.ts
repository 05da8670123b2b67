// The local-disk object store, used in-process: objects by key, atomic replacement, ranges, adopting a finished
// file, and keys that would leave the store.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { LocalDiskStorage } from '../src/storage/local-disk.js';

let root: string;
let store: LocalDiskStorage;
before(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'parlance-storage-'));
  store = new LocalDiskStorage(root);
});
after(() => fs.rm(root, { recursive: true, force: true }));

test('put, get, stat, stream with a range, delete', async () => {
  assert.equal(await store.get('files/1/ab/xyz/a.txt'), null);
  assert.equal(await store.stat('files/1/ab/xyz/a.txt'), null);
  assert.equal(await store.stream('files/1/ab/xyz/a.txt'), null);
  await store.put('files/1/ab/xyz/a.txt', Buffer.from('first'));
  await store.put('files/1/ab/xyz/a.txt', Buffer.from('0123456789'));
  assert.equal((await store.get('files/1/ab/xyz/a.txt'))!.toString(), '0123456789');
  assert.deepEqual(await store.stat('files/1/ab/xyz/a.txt'), { size: 10 });
  assert.equal(await text((await store.stream('files/1/ab/xyz/a.txt', { start: 3, end: 5 }))!), '345');
  // No temporary files are left beside the object.
  assert.deepEqual(await fs.readdir(path.join(root, 'files/1/ab/xyz')), ['a.txt']);
  await store.delete('files/1/ab/xyz/a.txt');
  await store.delete('files/1/ab/xyz/a.txt');
  assert.equal(await store.get('files/1/ab/xyz/a.txt'), null);
  // The upload's own directory goes with its file; shared ones stay.
  assert.deepEqual(await fs.readdir(path.join(root, 'files/1/ab')), []);
  // A directory is not an object.
  assert.equal(await store.get('files/1/ab'), null);
  assert.equal(await store.stat('files/1'), null);
});

test('adopting a finished local file moves it into the store', async () => {
  const staged = path.join(root, 'staged.bin');
  await fs.writeFile(staged, 'resumed');
  await store.adopt('files/1/cd/uvw/b.bin', staged);
  assert.equal((await store.get('files/1/cd/uvw/b.bin'))!.toString(), 'resumed');
  await assert.rejects(fs.stat(staged));
});

test('keys that could leave the store are refused', async () => {
  for (const key of ['../outside', 'files/../../outside', '/etc/passwd', 'files//x', 'files/./x', 'files/a\\..\\b', 'files/a\u0000b', '', 'files/x/']) {
    await assert.rejects(store.put(key, Buffer.from('x')), /invalid storage key/, JSON.stringify(key));
    await assert.rejects(store.get(key), /invalid storage key/, JSON.stringify(key));
  }
  await assert.rejects(fs.stat(path.join(root, '..', 'outside')));
});
