import { createCipheriv, createDecipheriv, createHash, hash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';

/**
 * Passwords are low-entropy, so they get a memory-hard hash (Argon2id, the library's defaults:
 * 19 MiB, 2 passes). Client secrets and tokens are 122+ random bits, so a SHA-256 digest is
 * enough to make a leaked table useless, and it keeps per-request token checks cheap.
 */
export const hashPassword = (password: string): Promise<string> => argon2Hash(password);

export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await argon2Verify(stored, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Verifies a password against a user's hash, or, when there is no such user, against a hash of
 * a random password made once: either way the caller pays one Argon2 verification, so the answer
 * takes as long for an unknown user name as for a known one with a wrong password.
 */
export async function verifyUserPassword(stored: string | undefined, password: string): Promise<boolean> {
  dummy ??= hashPassword(randomUUID());
  const ok = await verifyPassword(stored ?? (await dummy), password);
  return stored !== undefined && ok;
}

/**
 * A secret's SHA-256 as hex, as stored. One-shot `hash`: every authenticated request digests its
 * token, and building a Hash object for it cost 0.73 µs against 0.27 µs.
 */
export const digest = (secret: string): string => hash('sha256', secret, 'hex');

/** Constant-time comparison of a presented secret with a stored digest. */
export function matchesDigest(storedDigest: string, presented: string): boolean {
  const a = Buffer.from(storedDigest, 'hex');
  const b = Buffer.from(digest(presented), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newToken = (): string => randomBytes(32).toString('base64url');
export const newClientSecret = (): string => randomUUID();

const sealKey = (secret: string) => createHash('sha256').update(`seal:${secret}`).digest();

/** AES-256-GCM under a key derived from `secret`: only a holder of the secret can open it. */
export function seal(secret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(secret), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function unseal(secret: string, sealed: string): string | undefined {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', sealKey(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
