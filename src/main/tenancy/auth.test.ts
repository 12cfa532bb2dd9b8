import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../../shared/errors';
import { createAuthenticator, type Authenticator } from './auth';

const PLATFORM_KEY = 'platform-key-0123456789abcdef-0123456789';
const SECRET = new TextEncoder().encode('jwt-secret-0123456789abcdef-0123456789');
const now = () => Math.floor(Date.now() / 1000);

function sign(claims: Record<string, unknown>, opts: { secret?: Uint8Array; alg?: string; exp?: number | null } = {}): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: opts.alg ?? 'HS256' }).setIssuedAt();
  if (opts.exp !== null) jwt.setExpirationTime(opts.exp ?? now() + 300);
  return jwt.sign(opts.secret ?? SECRET);
}

function headers(token: string | undefined, authorization: string | undefined = `Bearer ${PLATFORM_KEY}`) {
  return { ...(authorization !== undefined ? { authorization } : {}), ...(token !== undefined ? { 'x-folio-user': token } : {}) };
}

async function rejection(auth: Authenticator, h: Record<string, string | string[]>): Promise<FolioError> {
  const error = await auth.authenticate(h).then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(FolioError);
  return error as FolioError;
}

describe('authenticate with an HS256 secret', () => {
  const auth = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'secret', secret: SECRET } });

  it('turns a valid platform key and user token into the scope it names', async () => {
    const token = await sign({ tenant_id: 'acme', sub: 'u_42' });
    expect(await auth.authenticate(headers(token))).toEqual({ tenant_id: 'acme', user_id: 'u_42' });
  });

  it('refuses an expired token, but tolerates a little clock skew', async () => {
    const expired = await sign({ tenant_id: 'acme', sub: 'u' }, { exp: now() - 120 });
    const error = await rejection(auth, headers(expired));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('X-Folio-User: token expired');
    const skewed = await sign({ tenant_id: 'acme', sub: 'u' }, { exp: now() - 5 });
    expect(await auth.authenticate(headers(skewed))).toEqual({ tenant_id: 'acme', user_id: 'u' });
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await sign({ tenant_id: 'acme', sub: 'u' }, { secret: new TextEncoder().encode('another-secret-0123456789abcdef-xyz') });
    expect((await rejection(auth, headers(forged))).message).toBe('X-Folio-User: signature invalid');
  });

  it('names the missing claim', async () => {
    expect((await rejection(auth, headers(await sign({ sub: 'u' })))).message).toBe('X-Folio-User: claim tenant_id missing');
    expect((await rejection(auth, headers(await sign({ tenant_id: 'acme' })))).message).toBe('X-Folio-User: claim sub missing');
    expect((await rejection(auth, headers(await sign({ tenant_id: 'acme', sub: 'u' }, { exp: null })))).message).toBe('X-Folio-User: claim exp missing');
  });

  it('refuses ids that could not safely be folder names', async () => {
    for (const tenant of ['../etc', 'a/b', 'a.b', '', 'x'.repeat(65), 42]) {
      const error = await rejection(auth, headers(await sign({ tenant_id: tenant, sub: 'u' })));
      expect(error.message, String(tenant)).toContain('claim tenant_id');
    }
    expect((await rejection(auth, headers(await sign({ tenant_id: 'acme', sub: 'a b' })))).message).toContain('claim sub');
  });

  it('accepts no unsigned token (alg none) and no other algorithm', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ tenant_id: 'acme', sub: 'u', exp: now() + 300 })}.`;
    expect((await rejection(auth, headers(unsigned))).message).toBe('X-Folio-User: signing algorithm not accepted');
    const hs512 = await sign({ tenant_id: 'acme', sub: 'u' }, { alg: 'HS512', secret: new Uint8Array(64).fill(7) });
    expect((await rejection(auth, headers(hs512))).message).toBe('X-Folio-User: signing algorithm not accepted');
  });

  it('checks the platform key first, in constant shape', async () => {
    const token = await sign({ tenant_id: 'acme', sub: 'u' });
    expect((await rejection(auth, headers(token, `Bearer ${PLATFORM_KEY}x`))).message).toBe('Authorization: wrong platform key');
    expect((await rejection(auth, { 'x-folio-user': token })).message).toContain('Authorization: missing');
    for (const bad of [`Basic ${PLATFORM_KEY}`, 'Bearer', `Bearer ${PLATFORM_KEY} extra`, PLATFORM_KEY]) {
      expect((await rejection(auth, headers(token, bad))).message, bad).toMatch(/^Authorization: /);
    }
  });

  it('refuses a missing or malformed X-Folio-User header without echoing it', async () => {
    expect((await rejection(auth, headers(undefined))).message).toContain('X-Folio-User: missing');
    const token = await sign({ tenant_id: 'acme', sub: 'u' });
    for (const bad of ['not-a-jwt', `Bearer ${token}`, `${token}, ${token}`, `${token}.extra`, 'a.b.c'.repeat(3000)]) {
      const error = await rejection(auth, headers(bad));
      expect(error.code).toBe('unauthorized');
      expect(error.message).not.toContain(token);
      expect(error.message.length).toBeLessThan(120);
    }
    // Node hands repeated custom headers over as one joined string; an array must be refused too.
    expect((await rejection(auth, { authorization: `Bearer ${PLATFORM_KEY}`, 'x-folio-user': [token, token] })).code).toBe('unauthorized');
  });

  it('checks issuer and audience when configured', async () => {
    const strict = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'secret', secret: SECRET, issuer: 'https://platform.example', audience: 'folio' } });
    const good = await new SignJWT({ tenant_id: 'acme', sub: 'u' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://platform.example').setAudience('folio').setExpirationTime('5m').sign(SECRET);
    expect(await strict.authenticate(headers(good))).toEqual({ tenant_id: 'acme', user_id: 'u' });
    const wrong = await new SignJWT({ tenant_id: 'acme', sub: 'u' }).setProtectedHeader({ alg: 'HS256' }).setIssuer('https://evil.example').setAudience('folio').setExpirationTime('5m').sign(SECRET);
    expect((await rejection(strict, headers(wrong))).message).toBe('X-Folio-User: claim iss invalid');
  });
});

describe('authenticate with a JWKS URL', () => {
  let server: Server;
  let url: URL;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  let publicJwk: Record<string, unknown>;
  let serving = true;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    server = createServer((_req, res) => {
      if (!serving) {
        res.writeHead(500).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [publicJwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const signEs = (claims: Record<string, unknown>, kid = 'k1') =>
    new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).setExpirationTime('5m').sign(privateKey);

  it('verifies a token signed with the platform key the JWKS publishes', async () => {
    const auth = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'jwks', url } });
    expect(await auth.authenticate(headers(await signEs({ tenant_id: 't1', sub: 'alice' })))).toEqual({ tenant_id: 't1', user_id: 'alice' });
  });

  it('refuses an HS256 token made with the public key as its secret (algorithm confusion)', async () => {
    const auth = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'jwks', url } });
    const confused = await sign({ tenant_id: 't1', sub: 'alice' }, { secret: new TextEncoder().encode(JSON.stringify(publicJwk)) });
    expect((await rejection(auth, headers(confused))).message).toBe('X-Folio-User: signing algorithm not accepted');
  });

  it('refuses a token whose key id the JWKS does not publish', async () => {
    const auth = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'jwks', url } });
    expect((await rejection(auth, headers(await signEs({ tenant_id: 't1', sub: 'alice' }, 'k2')))).message).toBe('X-Folio-User: no platform key matches the token');
  });

  it('answers unavailable (not unauthorized) when the key server fails', async () => {
    serving = false;
    try {
      const auth = createAuthenticator({ platformKey: PLATFORM_KEY, jwt: { kind: 'jwks', url } });
      expect((await rejection(auth, headers(await signEs({ tenant_id: 't1', sub: 'alice' })))).code).toBe('unavailable');
    } finally {
      serving = true;
    }
  });
});
