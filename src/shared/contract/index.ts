export * from './entities';
export * from './events';
export * from './methods';
export * from '../errors';
export * from './mcp';
