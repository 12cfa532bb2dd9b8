// The stores reach the service through the FolioApi chosen at startup (IPC or HTTP).
import type { FolioApi } from '../api/folio-api';

let current: FolioApi | null = null;

export function setApi(api: FolioApi): void {
  current = api;
}

export function getApi(): FolioApi {
  if (!current) throw new Error('FolioApi used before startup selected a transport.');
  return current;
}
