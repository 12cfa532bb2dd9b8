/// <reference types="vite/client" />
import type { FolioBridge } from '../shared/transport';

declare global {
  interface Window {
    /** Present only inside the Electron window (exposed by the preload). */
    folio?: FolioBridge;
  }
}
