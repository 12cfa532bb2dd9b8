export { createHttpServer, startHttpServer, type HttpServerOptions, type RunningHttpServer, type StartHttpServerOptions } from './server';
export { CONTENT_SECURITY_POLICY } from './respond';
