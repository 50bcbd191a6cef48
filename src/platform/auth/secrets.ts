import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
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

export const digest = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Constant-time comparison of a presented secret with a stored digest. */
export function matchesDigest(storedDigest: string, presented: string): boolean {
  const a = Buffer.from(storedDigest, 'hex');
  const b = Buffer.from(digest(presented), 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export const newToken = (): string => randomBytes(32).toString('base64url');
export const newClientSecret = (): string => randomUUID();
