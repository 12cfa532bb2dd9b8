// IPC channel names, in a module with no dependencies: the sandboxed preload imports it and
// cannot load npm packages (zod) at run time.
export const IPC = {
  call: 'folio:call',
  subscribe: 'folio:subscribe',
  unsubscribe: 'folio:unsubscribe',
  event: 'folio:run-event',
} as const;
