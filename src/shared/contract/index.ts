export * from './entities';
export * from './events';
export * from './methods';
export * from './search-settings';
export * from '../errors';
export * from './branches';
export * from './mcp';
export * from './projects';
// ---- lib-search ----
export * from './embedding-settings';
// ---- team service (issue 16) ----
export * from './usage';
