// Errors from actions that have no inline place of their own (e.g. renaming a task) surface here.
import { create } from 'zustand';
import { FolioError, type ErrorCode } from '../../shared/folio-error';

export interface ErrorInfo {
  code: ErrorCode | 'unknown';
  message: string;
  /** The error's class (`ProviderKeyRejectedError`) when it names the cause more precisely than the code. */
  name?: string;
}

export function toErrorInfo(err: unknown): ErrorInfo {
  if (err instanceof FolioError) return { code: err.code, message: err.message, name: err.name };
  if (err instanceof Error) return { code: 'unknown', message: err.message };
  return { code: 'unknown', message: String(err) };
}

interface Notice extends ErrorInfo {
  id: number;
}

interface NoticesState {
  notices: Notice[];
  report: (err: unknown) => void;
  dismiss: (id: number) => void;
}

let nextId = 1;

export const useNotices = create<NoticesState>((set) => ({
  notices: [],
  report: (err) => {
    const notice = { ...toErrorInfo(err), id: nextId++ };
    set((s) => ({ notices: [...s.notices.slice(-3), notice] }));
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));

export function reportError(err: unknown): void {
  useNotices.getState().report(err);
}
