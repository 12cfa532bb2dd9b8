export { createHttpServer } from './server';
export { startHttpServer } from './start';
export {
  HEALTH_PATH,
  READY_PATH,
  type CoreResolver,
  type CoreRequest,
  type DrainOptions,
  type FolioHttpServer,
  type HttpServerOptions,
  type RunningHttpServer,
  type StartHttpServerOptions,
  type TenancyOptions,
} from './server-options';
export { CONTENT_SECURITY_POLICY } from './respond';
