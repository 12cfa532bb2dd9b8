// The open chat as the branches and outline stores see it. The chat store calls them (it loads a
// task's branches, hands a proposed outline over), so they reach it through this link instead of
// importing it: chat-store.ts links itself here when it is created.
import type { Message } from '../../shared/contract';
import type { ErrorInfo } from './notices';

export interface OpenChatState {
  taskId: string | null;
  messages: Message[];
  error: ErrorInfo | null;
  open: (taskId: string | null) => Promise<void>;
  runFrom: (taskId: string, start: () => Promise<{ run_id: string }>) => Promise<boolean>;
}

interface OpenChatStore {
  getState(): OpenChatState;
  setState(partial: Partial<OpenChatState> | ((s: OpenChatState) => Partial<OpenChatState>)): void;
}

let linked: OpenChatStore | null = null;

export function linkOpenChat(store: OpenChatStore): void {
  linked = store;
}

function chat(): OpenChatStore {
  if (!linked) throw new Error('the chat store is used before it was created');
  return linked;
}

export const openChat: OpenChatStore = {
  getState: () => chat().getState(),
  setState: (partial) => chat().setState(partial),
};
