// Matches a method and path to a Route. Paths are split into segments once; `:name` segments
// capture (URL-decoded). A path that matches with another method is a 405 with an Allow header.
import { badRequest } from './errors.js';
import type { Method, Route } from './routes.js';

interface CompiledRoute {
  route: Route;
  segments: string[];
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'not-found' }
  | { kind: 'wrong-method'; allow: Method[] };

function splitPath(pathname: string): string[] {
  const trimmed = pathname.length > 1 && pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
  return trimmed.split('/').slice(1);
}

export class Router {
  private readonly bySegmentCount = new Map<number, CompiledRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      const segments = splitPath(route.path);
      const bucket = this.bySegmentCount.get(segments.length) ?? [];
      bucket.push({ route, segments });
      this.bySegmentCount.set(segments.length, bucket);
    }
  }

  match(method: string, pathname: string): RouteMatch {
    const parts = splitPath(pathname);
    const allow: Method[] = [];
    for (const candidate of this.bySegmentCount.get(parts.length) ?? []) {
      const params = matchSegments(candidate.segments, parts);
      if (!params) continue;
      if (candidate.route.method === method) return { kind: 'found', route: candidate.route, params };
      allow.push(candidate.route.method);
    }
    return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'not-found' };
  }
}

function matchSegments(pattern: string[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let index = 0; index < pattern.length; index += 1) {
    const expected = pattern[index] ?? '';
    const actual = parts[index] ?? '';
    if (expected.startsWith(':')) {
      if (actual === '') return undefined;
      params[expected.slice(1)] = decodeSegment(actual);
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return params;
}

function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw badRequest(`malformed percent-encoding in path segment "${segment}"`);
  }
}
