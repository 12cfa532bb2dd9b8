// Keys a tenant stores (`POST /v1/keys`) are encrypted at rest on the shared mount: AES-256-GCM
// under a key-encryption key (KEK) the operator gives every worker (FOLIO_KEY_ENCRYPTION_KEY), with
// the tenant's id as associated data, so a value copied into another tenant's file does not decrypt.
// Each value names the KEK that sealed it (a short fingerprint), so the KEK can be rotated: start the
// workers with the new one and the old one as previous, and each tenant's file is re-sealed with the
// new one when its core opens (and all of them at start).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FolioError } from '../../shared/errors';
import type { KeyCodec } from '../models';

const PREFIX = 'folio-kek1';
const KEK_BYTES = 32;

export interface Kek {
  /** The first 8 bytes of the KEK's SHA-256, in hex: names it in each sealed value, reveals nothing usable. */
  id: string;
  key: Buffer;
}

export interface Keyring {
  current: Kek;
  /** Older KEKs: values sealed with them are still read (and re-sealed with the current one). */
  previous: Kek[];
}

export class KeyEncryptionError extends FolioError {
  constructor(message: string) {
    super('invalid_input', message, { name: 'KeyEncryptionError' });
  }
}

/** A KEK as the operator gives it: 32 random bytes in base64 (`openssl rand -base64 32`). */
export function parseKek(setting: string, value: string): Kek {
  const key = Buffer.from(value.trim(), 'base64');
  if (key.length !== KEK_BYTES || key.toString('base64') !== value.trim()) {
    throw new KeyEncryptionError(`${setting}: expected ${KEK_BYTES} random bytes in base64 (openssl rand -base64 32)`);
  }
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 16), key };
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(`${PREFIX}:`);
}

/** The codec of one tenant's key store: seals with the current KEK, opens with any KEK of the ring. */
export function tenantKeyCodec(ring: Keyring, tenantId: string): KeyCodec {
  const aad = Buffer.from(`folio-tenant-key:${tenantId}`, 'utf8');
  return {
    encode(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
      cipher.setAAD(aad);
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [PREFIX, ring.current.id, iv.toString('base64'), cipher.getAuthTag().toString('base64'), sealed.toString('base64')].join(':');
    },
    decode(stored) {
      // A value from before encryption (a plain keys.json) is read once; migrateKeyFile re-seals it.
      if (!isSealed(stored)) return stored;
      const [, kekId, iv, tag, data] = stored.split(':');
      const kek = [ring.current, ...ring.previous].find((k) => k.id === kekId);
      if (!kek || !iv || !tag || data === undefined) throw new KeyEncryptionError('A stored key was sealed with a key-encryption key this worker does not have');
      const decipher = createDecipheriv('aes-256-gcm', kek.key, Buffer.from(iv, 'base64'));
      decipher.setAAD(aad);
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Re-seals a key file's values that are plain text or sealed with an older KEK; returns how many.
 * Written atomically (owner-only), so a worker reading it at the same time sees the old or the new file.
 */
export function migrateKeyFile(file: string, ring: Keyring, tenantId: string): number {
  if (!existsSync(file)) return 0;
  let entries: Record<string, unknown>;
  try {
    entries = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return 0;
  }
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return 0;
  const codec = tenantKeyCodec(ring, tenantId);
  let changed = 0;
  for (const [name, value] of Object.entries(entries)) {
    if (typeof value !== 'string') continue;
    if (isSealed(value) && value.split(':')[1] === ring.current.id) continue;
    try {
      entries[name] = codec.encode(codec.decode(value));
      changed++;
    } catch {
      // Sealed with a KEK no longer given: left as it is (unreadable, and never plain text).
    }
  }
  if (changed === 0) return 0;
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, JSON.stringify(entries, null, 2) + '\n', { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
  return changed;
}

/** Every tenant's key file under `<storage root>/tenants/`, re-sealed at a worker's start. */
export function migrateAllKeyFiles(storageRoot: string, ring: Keyring, keyFile: (tenantDir: string) => string): number {
  const tenants = join(storageRoot, 'tenants');
  if (!existsSync(tenants)) return 0;
  let changed = 0;
  for (const entry of readdirSync(tenants, { withFileTypes: true })) {
    if (entry.isDirectory()) changed += migrateKeyFile(keyFile(join(tenants, entry.name)), ring, entry.name);
  }
  return changed;
}
