import crypto from 'node:crypto';

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

// Loaded at the first password a server handles, not at start-up (B8: an idle server's memory).
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const hash = async (password: string, options: object) => (await (argon2 ??= import('@node-rs/argon2'))).hash(password, options);
const verify = async (stored: string, password: string) => (await (argon2 ??= import('@node-rs/argon2'))).verify(stored, password);

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
