// Response helpers: every response carries the same security headers, and every error has the
// one wire shape `{error: {name, code, message}}` with the status derived from its code.
import type { ServerResponse } from 'node:http';
import { type ErrorShape, httpStatusForCode, toErrorShape } from '../../../shared/errors';

// Scripts and workers are named, not left to default-src: Chromium notes every fallback it takes in
// the console, and the policy reads as what it allows.
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; worker-src 'self'; img-src 'self' data: blob:; " +
  "style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(payload.length),
    'Cache-Control': 'no-store',
  });
  res.end(payload);
}

export function sendError(res: ServerResponse, error: unknown, headers: Record<string, string> = {}): void {
  sendErrorShape(res, toErrorShape(error), headers);
}

export function sendErrorShape(res: ServerResponse, shape: ErrorShape, headers: Record<string, string> = {}): void {
  sendJson(res, httpStatusForCode[shape.code], { error: shape }, headers);
}

/**
 * For errors raised before the request body was read (too large, wrong type): the connection is
 * closed afterwards so the unread body cannot be mistaken for the next request.
 */
export function sendErrorAndClose(res: ServerResponse, error: unknown): void {
  res.shouldKeepAlive = false;
  sendError(res, error, { Connection: 'close' });
}
