// Keys come partly from clients (an upload's path), so anything that could step outside the store is refused.
const SEGMENT = /^[^/\\\u0000-\u001f\u007f]+$/u;

export function isValidKey(key: string): boolean {
  if (key.length > 1024) return false;
  return key.split('/').every((s) => SEGMENT.test(s) && s !== '.' && s !== '..');
}

export function checkKey(key: string): string {
  if (!isValidKey(key)) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}
