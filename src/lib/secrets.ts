import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

// Uniform over the alphabet: bytes above the largest multiple of its size are rejected.
export function randomToken(length = 32): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < length) {
    for (const b of crypto.randomBytes(length * 2)) {
      if (b < limit && out.length < length) out += ALPHABET[b % ALPHABET.length];
    }
  }
  return out;
}

// Runs on every request (API keys): strings of different lengths are told apart at once, which reveals only
// the length (every API key has 32 characters); equal lengths are compared in constant time.
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string | null, password: string): Promise<boolean>;
}

export function passwordHasher(memoryCost: number): PasswordHasher {
  const options = { memoryCost, timeCost: 2, parallelism: 1 };
  // Checked when there is no user or no password, so that a miss costs as much as a wrong password.
  let decoy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password, options),
    async verify(stored, password) {
      if (!stored) {
        decoy ??= hash(randomToken(), options);
        await verify(await decoy, password).catch(() => false);
        return false;
      }
      return verify(stored, password).catch(() => false);
    },
  };
}
