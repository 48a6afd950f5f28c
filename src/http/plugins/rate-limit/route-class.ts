import type { RouteOptions } from 'fastify';
import { RATE_LIMIT_CLASSES, type RateLimitClass } from '../../../config.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RateLimitClass;
  }
}

const STATIC_SURFACE = /\.(json|jsonl|txt|xml)$/;
const OPERATIONS_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The class of a route: what it declares in `config.rateLimit`, else 'free', except static surfaces (GET of a fixed
 * path ending in .json, .jsonl, .txt or .xml and taking no query), CORS preflight and the health and metrics probes,
 * which are 'unlimited'.
 */
export function routeClass(route: Pick<RouteOptions, 'method' | 'url' | 'config' | 'schema'>): RateLimitClass {
  const declared = (route.config as { rateLimit?: unknown } | undefined)?.rateLimit;
  if (declared !== undefined) {
    if (!RATE_LIMIT_CLASSES.includes(declared as RateLimitClass)) {
      throw new Error(
        `route ${String(route.method)} ${route.url}: config.rateLimit must be one of ${RATE_LIMIT_CLASSES.join(', ')}`,
      );
    }
    return declared as RateLimitClass;
  }
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.every((m) => m === 'OPTIONS')) return 'unlimited';
  const url = route.url ?? '';
  if (OPERATIONS_PATHS.has(url)) return 'unlimited';
  // A static surface: a document at a fixed URL (no path parameter, no query), cached at the edge.
  const dynamic = url.includes(':') || url.includes('*') || Boolean(route.schema?.querystring);
  if (methods.every((m) => m === 'GET' || m === 'HEAD') && STATIC_SURFACE.test(url) && !dynamic) return 'unlimited';
  return 'free';
}
