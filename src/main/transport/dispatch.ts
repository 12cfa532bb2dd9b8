// The one place a call from outside main meets the service: both transports (IPC, HTTP) go through
// here, so method lookup, input validation, output validation and error mapping are identical.
import { contract, isMethodName, type MethodSpec } from '../../shared/contract/methods';
import { FolioError, ValidationError, formatZodError, toErrorShape } from '../../shared/errors';
import type { CallResult } from '../../shared/transport';
import type { FolioCore } from '../service/ports';

export type TransportKind = 'ipc' | 'http';

export interface DispatchOptions {
  transport: TransportKind;
  /**
   * Told about failures that are bugs in main (thrown non-FolioErrors, outputs that break the
   * contract). The caller only ever sees a generic `internal` error. Defaults to console.error.
   */
  onInternalError?: (method: string, error: unknown) => void;
}

/** IPC messages are structured-cloned into main with no size cap of their own. */
export const MAX_IPC_PAYLOAD_BYTES = 2 * 1024 * 1024;
/** Zod messages can quote keys the caller sent (e.g. an unknown 300 KB field name). */
const MAX_ERROR_MESSAGE_CHARS = 1000;

export class ForbiddenError extends FolioError {
  constructor(message: string) {
    super('forbidden', message, { name: 'ForbiddenError' });
  }
}

export class PayloadTooLargeError extends FolioError {
  constructor(message: string) {
    super('payload_too_large', message, { name: 'PayloadTooLargeError' });
  }
}

class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export async function dispatchCall(core: FolioCore, method: unknown, input: unknown, opts: DispatchOptions): Promise<CallResult> {
  const methodLabel = typeof method === 'string' ? method.slice(0, 100) : `<${typeof method}>`;
  try {
    if (!isMethodName(method)) throw new ValidationError(`Unknown method ${methodLabel}`);
    const spec: MethodSpec = contract[method];
    if (opts.transport === 'http' && (spec.ipcOnly === true || !spec.http)) {
      throw new ForbiddenError(`${method} is only available in the desktop app`);
    }
    if (opts.transport === 'ipc') assertIpcPayloadSize(input);

    const parsedInput = spec.input.safeParse(input === undefined ? {} : input);
    if (!parsedInput.success) throw new ValidationError(clip(formatZodError(parsedInput.error)));

    const handler = core.handlers[method] as unknown as (input: unknown) => Promise<unknown>;
    const value = await handler.call(core.handlers, parsedInput.data);

    // Parsing (not just checking) strips fields the contract does not name, so nothing main did
    // not mean to publish crosses the boundary.
    const parsedOutput = spec.output.safeParse(value);
    if (!parsedOutput.success) {
      throw new ContractViolation(`output of ${method} breaks the contract: ${formatZodError(parsedOutput.error)}`);
    }
    return { ok: true, value: parsedOutput.data };
  } catch (err) {
    if (!(err instanceof FolioError)) (opts.onInternalError ?? logInternalError)(methodLabel, err);
    const shape = toErrorShape(err);
    return { ok: false, error: { ...shape, message: clip(shape.message) } };
  }
}

function assertIpcPayloadSize(input: unknown): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(input);
  } catch {
    // Structured clone lets cycles and BigInts through; the contract has no use for either.
    throw new ValidationError('Input is not JSON-serializable');
  }
  if (json !== undefined && Buffer.byteLength(json, 'utf8') > MAX_IPC_PAYLOAD_BYTES) {
    throw new PayloadTooLargeError(`Input exceeds ${MAX_IPC_PAYLOAD_BYTES} bytes`);
  }
}

function clip(message: string): string {
  return message.length > MAX_ERROR_MESSAGE_CHARS ? `${message.slice(0, MAX_ERROR_MESSAGE_CHARS)}…` : message;
}

function logInternalError(method: string, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : typeof error;
  console.error(`[folio] ${method} failed: ${detail}`);
}
