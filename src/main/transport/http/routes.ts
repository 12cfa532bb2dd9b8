// The HTTP route table: every contract method that has an `http` route, plus the two endpoints
// that are not plain calls (multipart uploads of task files and templates, SSE run events).
import { contract, methodNames, type MethodName, type MethodSpec } from '../../../shared/contract/methods';
import { type Route, Router } from './router';

export type RouteTarget =
  | { kind: 'call'; method: MethodName; download: boolean }
  | { kind: 'upload' }
  | { kind: 'template-upload' }
  | { kind: 'library-upload' }
  | { kind: 'events' };

export const UPLOAD_PATH = '/v1/tasks/:task_id/files';
/** `GET` lists templates (a contract call); `POST` imports one sent as multipart. */
export const TEMPLATE_UPLOAD_PATH = '/v1/templates';
/** `GET` lists a library's files (a contract call); `POST` adds files sent as multipart. */
export const LIBRARY_UPLOAD_PATH = '/v1/projects/:project_id/files';
export const EVENTS_PATH = '/v1/tasks/:task_id/runs/:run_id/events';

/** Methods that create a resource answer 201 rather than 200. */
const createdMethods: ReadonlySet<MethodName> = new Set<MethodName>(['createTask', 'createProject']);

export function statusForSuccess(method: MethodName): number {
  return createdMethods.has(method) ? 201 : 200;
}

export function contractRoutes(): Route<RouteTarget>[] {
  const routes: Route<RouteTarget>[] = [];
  for (const name of methodNames) {
    const spec: MethodSpec = contract[name];
    if (!spec.http || spec.ipcOnly === true) continue;
    routes.push({
      method: spec.http.method,
      path: spec.http.path,
      target: { kind: 'call', method: name, download: spec.http.download === true },
    });
  }
  return routes;
}

export function createApiRouter(): Router<RouteTarget> {
  return new Router<RouteTarget>([
    ...contractRoutes(),
    { method: 'POST', path: UPLOAD_PATH, target: { kind: 'upload' } },
    { method: 'POST', path: TEMPLATE_UPLOAD_PATH, target: { kind: 'template-upload' } },
    { method: 'POST', path: LIBRARY_UPLOAD_PATH, target: { kind: 'library-upload' } },
    { method: 'GET', path: EVENTS_PATH, target: { kind: 'events' } },
  ]);
}
