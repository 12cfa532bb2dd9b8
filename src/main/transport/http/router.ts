// Matches request paths against route patterns. The route table itself is derived from the
// contract (see routes.ts); this module only knows the pattern syntax:
//   `:name`  one path segment,   `*name`  the rest of the path (last segment only).
// Segments are URL-decoded after splitting, so an encoded `/` cannot create new segments.
import { type HttpMethod } from '../../../shared/contract/methods';
import { ValidationError } from '../../../shared/errors';

type Segment = { kind: 'literal'; value: string } | { kind: 'param'; name: string } | { kind: 'rest'; name: string };

export interface Route<T> {
  method: HttpMethod;
  path: string;
  target: T;
}

interface CompiledRoute<T> extends Route<T> {
  segments: Segment[];
}

export type RouteMatch<T> =
  | { kind: 'found'; route: Route<T>; params: Record<string, string> }
  | { kind: 'method_not_allowed'; allow: HttpMethod[] }
  | { kind: 'not_found' };

export class Router<T> {
  private readonly routes: CompiledRoute<T>[];

  constructor(routes: Route<T>[]) {
    this.routes = routes.map((route) => ({ ...route, segments: compilePattern(route.path) }));
  }

  /** `pathname` is the raw (still percent-encoded) path without the query string. */
  match(method: string, pathname: string): RouteMatch<T> {
    const raw = pathname.split('/').slice(1);
    const allow: HttpMethod[] = [];
    for (const route of this.routes) {
      const params = matchSegments(route.segments, raw);
      if (!params) continue;
      if (route.method === method) return { kind: 'found', route, params };
      if (!allow.includes(route.method)) allow.push(route.method);
    }
    return allow.length > 0 ? { kind: 'method_not_allowed', allow } : { kind: 'not_found' };
  }
}

function compilePattern(path: string): Segment[] {
  if (!path.startsWith('/')) throw new Error(`Route pattern must start with /: ${path}`);
  const parts = path.split('/').slice(1);
  return parts.map((part, index): Segment => {
    if (part.startsWith(':')) return { kind: 'param', name: part.slice(1) };
    if (part.startsWith('*')) {
      if (index !== parts.length - 1) throw new Error(`Rest segment must be last: ${path}`);
      return { kind: 'rest', name: part.slice(1) };
    }
    return { kind: 'literal', value: part };
  });
}

function matchSegments(segments: Segment[], raw: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    if (segment.kind === 'rest') {
      if (raw.length <= i) return null;
      params[segment.name] = raw.slice(i).map(decodeSegment).join('/');
      return params;
    }
    if (i >= raw.length) return null;
    const part = raw[i];
    if (segment.kind === 'literal') {
      if (part !== segment.value) return null;
    } else {
      params[segment.name] = decodeSegment(part);
    }
  }
  return raw.length === segments.length ? params : null;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError('Malformed percent-encoding in path');
  }
}
