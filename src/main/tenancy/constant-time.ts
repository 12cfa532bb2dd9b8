// Comparing secrets (the single-user token, the platform key) without leaking how much of a guess
// matched through timing.
import { timingSafeEqual } from 'node:crypto';

/** Constant-time for equal lengths; a length mismatch still spends one comparison. */
export function safeEqual(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) {
    timingSafeEqual(b, b);
    return false;
  }
  return timingSafeEqual(a, b);
}
