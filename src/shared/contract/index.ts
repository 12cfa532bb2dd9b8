export * from './entities';
export * from './events';
export * from './methods';
export * from './search-settings';
export * from '../errors';
export * from './branches';
export * from './mcp';
export * from './projects';
