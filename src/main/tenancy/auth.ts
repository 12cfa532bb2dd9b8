// Who is asking, in service mode. The platform (the product Folio is embedded in) proves it is the
// caller with `Authorization: Bearer <platform key>`, and names the person with `X-Folio-User: <JWT>`
// it signed: `tenant_id` and `sub` (the user id), with an expiry. Messages say which header or claim
// is wrong and never echo what was sent.
import type { IncomingHttpHeaders } from 'node:http';
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { FolioError } from '../../shared/errors';
import type { Scope } from '../store/port';
import type { JwtVerification } from './config';
import { safeEqual } from './constant-time';
import { isScopeId } from './scope-id';

export class UnauthorizedError extends FolioError {
  constructor(message: string) {
    super('unauthorized', message, { name: 'UnauthorizedError' });
  }
}

export interface Authenticator {
  authenticate(headers: IncomingHttpHeaders): Promise<Scope>;
}

export const USER_HEADER = 'x-folio-user';
/** The claim that makes a token an administrator's (probe, audit): `"folio_admin": true`. */
export const ADMIN_CLAIM = 'folio_admin';

/** Scopes authenticated from a token with the admin claim (the scope object of that request). */
const admins = new WeakSet<Scope>();

export function isAdmin(scope: Scope): boolean {
  return admins.has(scope);
}
/** Platforms and Folio workers never share a clock exactly. */
export const DEFAULT_CLOCK_TOLERANCE_SEC = 30;
/** Far above any real token; stops a megabyte of base64 from reaching the verifier. */
const MAX_TOKEN_CHARS = 8192;
// Pinned per mode, so a token can never choose how it is checked: an HS256 token "signed" with the
// public key (alg confusion) fails under JWKS, and `none` is accepted nowhere.
const HMAC_ALGORITHMS = ['HS256'];
const PUBLIC_KEY_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

export interface AuthenticatorOptions {
  platformKey: string;
  jwt: JwtVerification;
  clockToleranceSec?: number;
  /** Tests: a fixed clock. */
  currentDate?: () => Date;
}

export function createAuthenticator(opts: AuthenticatorOptions): Authenticator {
  const key: Uint8Array | JWTVerifyGetKey = opts.jwt.kind === 'secret' ? opts.jwt.secret : createRemoteJWKSet(opts.jwt.url, { timeoutDuration: 5000, cooldownDuration: 30_000 });
  const verifyOptions: JWTVerifyOptions = {
    algorithms: opts.jwt.kind === 'secret' ? HMAC_ALGORITHMS : PUBLIC_KEY_ALGORITHMS,
    clockTolerance: opts.clockToleranceSec ?? DEFAULT_CLOCK_TOLERANCE_SEC,
    requiredClaims: ['exp', 'sub', 'tenant_id'],
    ...(opts.jwt.issuer !== undefined ? { issuer: opts.jwt.issuer } : {}),
    ...(opts.jwt.audience !== undefined ? { audience: opts.jwt.audience } : {}),
  };

  return {
    async authenticate(headers) {
      checkPlatformKey(headers.authorization, opts.platformKey);
      const token = userToken(headers[USER_HEADER]);
      let payload: Record<string, unknown>;
      try {
        const options = opts.currentDate ? { ...verifyOptions, currentDate: opts.currentDate() } : verifyOptions;
        payload = (typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options)).payload;
      } catch (err) {
        throw explain(err);
      }
      const tenant = payload.tenant_id;
      const user = payload.sub;
      if (!isScopeId(tenant)) throw new UnauthorizedError('X-Folio-User: claim tenant_id must be 1-64 of A-Z a-z 0-9 _ -');
      if (!isScopeId(user)) throw new UnauthorizedError('X-Folio-User: claim sub must be 1-64 of A-Z a-z 0-9 _ -');
      const scope = { tenant_id: tenant, user_id: user };
      if (payload[ADMIN_CLAIM] === true) admins.add(scope);
      return scope;
    },
  };
}

function checkPlatformKey(header: string | undefined, platformKey: string): void {
  if (header === undefined) throw new UnauthorizedError('Authorization: missing (expected Bearer <platform key>)');
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw new UnauthorizedError('Authorization: expected Bearer <platform key>');
  if (!safeEqual(match[1], platformKey)) throw new UnauthorizedError('Authorization: wrong platform key');
}

function userToken(header: string | string[] | undefined): string {
  if (header === undefined) throw new UnauthorizedError('X-Folio-User: missing (expected a JWT signed by the platform)');
  // Node joins repeated custom headers with ", ", which no compact JWT contains.
  const value = Array.isArray(header) ? header.join(', ') : header.trim();
  if (value.length > MAX_TOKEN_CHARS || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value)) {
    throw new UnauthorizedError('X-Folio-User: expected one compact JWT (header.payload.signature)');
  }
  return value;
}

function explain(err: unknown): FolioError {
  if (err instanceof joseErrors.JWTExpired) return new UnauthorizedError('X-Folio-User: token expired');
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    return new UnauthorizedError(`X-Folio-User: claim ${err.claim} ${err.reason === 'missing' ? 'missing' : 'invalid'}`);
  }
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return new UnauthorizedError('X-Folio-User: signing algorithm not accepted');
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return new UnauthorizedError('X-Folio-User: signature invalid');
  if (err instanceof joseErrors.JWKSNoMatchingKey) return new UnauthorizedError('X-Folio-User: no platform key matches the token');
  // The key server not answering is not the caller's fault: another try (or worker) may succeed.
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid || isFetchFailure(err)) {
    return new FolioError('unavailable', 'The platform key set (JWKS) could not be fetched', { name: 'UnavailableError' });
  }
  if (err instanceof joseErrors.JOSEError) return new UnauthorizedError('X-Folio-User: token malformed');
  return new UnauthorizedError('X-Folio-User: token rejected');
}

function isFetchFailure(err: unknown): boolean {
  return err instanceof TypeError || (err instanceof joseErrors.JOSEError && /JSON Web Key Set/.test(err.message));
}
