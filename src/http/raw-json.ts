import type { FastifyInstance } from 'fastify';

/**
 * Within one plugin scope, keeps JSON request bodies as the raw string. The JSON-RPC surfaces (MCP, A2A) must
 * answer a malformed body with a JSON-RPC parse error (−32700) rather than the problem document Fastify's own parser
 * would produce, so they parse the body themselves (or hand it to their SDK, which does).
 */
export function keepJsonBodiesRaw(scope: FastifyInstance): void {
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
}

/** A route-level validator that accepts anything: the body schema documents the route, the handler checks it. */
export const documentOnly = () => () => true;
