import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Push signatures (docs/notifications.md): `Wealth-Timestamp` carries the send time in Unix
 * seconds and `Wealth-Signature` carries `v1=<hex HMAC-SHA256 of "<timestamp>.<body>">`, keyed
 * with the endpoint's signing secret. Signing the timestamp with the body lets a receiver refuse
 * a replayed request without keeping state.
 */
export const TIMESTAMP_HEADER = 'Wealth-Timestamp';
export const SIGNATURE_HEADER = 'Wealth-Signature';
export const DELIVERY_HEADER = 'Wealth-Delivery-Id';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString('base64url')}`;

export function signature(secret: string, timestamp: string | number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The two headers of one signed request. */
export function signedHeaders(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return { [TIMESTAMP_HEADER]: timestamp, [SIGNATURE_HEADER]: `v1=${signature(secret, timestamp, body)}` };
}

/**
 * True when `header` holds a `v1=` signature of `timestamp + "." + body` under `secret` and the
 * timestamp is within `toleranceSeconds` of `now`. `body` must be the raw request body, byte for
 * byte as received. A header may list several signatures separated by commas; one match will do.
 */
export function verifySignature(
  secret: string,
  timestamp: string | undefined,
  body: string,
  header: string | undefined,
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
  now: Date = new Date(),
): boolean {
  if (!secret || !timestamp || !header || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, timestamp, body), 'hex');
  return header
    .split(',')
    .map((part) => part.trim())
    // Node's hex decoder stops at the first non-hex character; only exact 64-digit values count.
    .filter((part) => /^v1=[0-9a-f]{64}$/i.test(part))
    .some((part) => timingSafeEqual(Buffer.from(part.slice(3), 'hex'), expected));
}
