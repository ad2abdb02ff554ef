/**
 * Webhook signatures: `X-Firecrawl-Signature: sha256=<hex>`, an HMAC-SHA256 of the exact body
 * bytes under the team's secret. Receivers must verify against the raw bytes they received;
 * re-serialising parsed JSON changes them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-firecrawl-signature';
const PREFIX = 'sha256=';

export function signBody(secret: string, rawBody: string | Uint8Array): string {
  return PREFIX + createHmac('sha256', secret).update(rawBody).digest('hex');
}

/** True when `header` is the signature of `rawBody` under `secret`; never throws. */
export function verifySignature(secret: string, rawBody: string | Uint8Array, header: string | string[] | undefined | null): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (typeof value !== 'string' || !value.startsWith(PREFIX)) return false;
  const given = value.slice(PREFIX.length).trim().toLowerCase();
  // Length is not secret (always 64 hex digits); checking it first keeps timingSafeEqual from throwing.
  if (!/^[0-9a-f]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(Buffer.from(given, 'hex'), expected);
}
