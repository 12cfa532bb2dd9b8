export {
  createHttpServer,
  startHttpServer,
  HEALTH_PATH,
  READY_PATH,
  type CoreResolver,
  type DrainOptions,
  type FolioHttpServer,
  type HttpServerOptions,
  type RunningHttpServer,
  type StartHttpServerOptions,
  type TenancyOptions,
} from './server';
export { CONTENT_SECURITY_POLICY } from './respond';
