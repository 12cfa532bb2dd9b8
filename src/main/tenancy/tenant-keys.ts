// A tenant's key store in the team service: the keys the tenant stored (a request's own keys are
// put in front of it per request, byo-keys.ts), sealed under the operator's key-encryption key. Without a KEK nothing is
// stored: `POST /v1/keys` is refused, so no key is ever written in plain text to the shared mount.
import { FolioError } from '../../shared/errors';
import { createFileKeyStore, keyFilePath, storedKeyValues, type KeyStore } from '../models';
import { isSealed, migrateKeyFile, tenantKeyCodec, type Keyring } from './key-encryption';

export function createTenantKeyStore(dataDir: string, tenantId: string, ring: Keyring | null): KeyStore {
  if (ring !== null) {
    migrateKeyFile(keyFilePath(dataDir), ring, tenantId);
    return createFileKeyStore(dataDir, tenantKeyCodec(ring, tenantId));
  }
  const legacy = createFileKeyStore(dataDir, {
    encode: () => {
      throw new FolioError('unsupported', 'This service stores no model keys: the operator has not set FOLIO_KEY_ENCRYPTION_KEY. Send the key with each request (X-Folio-Model-Key) instead.');
    },
    // A plain key file from before encryption is still read; a sealed one needs the KEK.
    decode: (stored) => {
      if (isSealed(stored)) throw new FolioError('unsupported', 'sealed key without a key-encryption key');
      return stored;
    },
  });
  return legacy;
}

/** The keys a tenant stored, in plain text, for scrubbing them from what the service logs; never shown or written. */
export function tenantStoredKeys(dataDir: string, tenantId: string, ring: Keyring | null): string[] {
  if (ring !== null) return storedKeyValues(dataDir, tenantKeyCodec(ring, tenantId));
  return storedKeyValues(dataDir, { encode: (plain) => plain, decode: (stored) => (isSealed(stored) ? '' : stored) });
}
