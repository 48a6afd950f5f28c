import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { nlwebAnswer } from '../../core/answers/nlweb.js';
import { foldMessages, nlwebAsk, type NlwebMode } from '../../core/answers/nlweb-ask.js';
import { JsonLd, NlwebAskParams, NlwebAskResponse, NlwebBody } from '../../schemas/answers.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';

export const NLWEB_ASK_PATH = '/api/nlweb/ask';
/** Where NLWeb clients look for the protocol by default: the site's root. */
export const NLWEB_ROOT_ASK_PATH = '/ask';

/**
 * POST /api/nlweb: a natural-language question answered as schema.org JSON-LD. GET and POST /api/nlweb/ask: the
 * NLWeb `/ask` protocol (results[] of schema.org items, one JSON object or Server-Sent Events).
 */
export async function nlwebRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/api/nlweb',
    {
      schema: {
        summary: 'Natural-language query answered as schema.org JSON-LD',
        description:
          'ItemList for list questions (trending, a sector, a signal type, a stage, a comparison), Organization for one startup, Dataset for questions about the data, Question for a question about the service. When nothing answers well enough: an empty ItemList named "No result" with a SearchAction, status 200. A body that is not `{query: string}` (1 to 280 characters) is 400.',
        tags: ['agents'],
        operationId: 'nlweb',
        body: NlwebBody,
        response: {
          200: { description: 'schema.org JSON-LD.', content: { 'application/ld+json': { schema: JsonLd } } },
          ...errorResponses(400, 413, 415, 503),
        },
      },
    },
    (request, reply) => {
      const body = nlwebAnswer(currentSnapshot(ctx), ctx.urls.base, request.body.query);
      // Pre-serialised JSON-LD: the bytes bypass the response serializer.
      (reply as FastifyReply)
        .header('content-type', 'application/ld+json; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(JSON.stringify(body));
    },
  );

  const ask = nlwebAskResponder(ctx);
  const askDescription =
    'The NLWeb `/ask` protocol. Parameters as NLWeb names them (query, site, prev, decontextualized_query, streaming, query_id, generate_mode or mode), in the query string (GET) or a JSON body (POST); others are ignored. Results come from the answer service first (`ranking_type: "answer"`: the startups of a list question, the startup asked about, the FAQ or data answer), then from the site search (`ranking_type: "search"`), each with its schema.org `schema_object`. `streaming` defaults to true: Server-Sent Events, each `data:` line a JSON message with `message_type` and `query_id` — api_version, decontextualized_query, result_batch {results} or no_results {message}, then summary {message} (generate_mode summarize) or nlws {answer, items} (generate), and complete last. `streaming=false`: one JSON object (`results` plus a key per other message type). A missing or over-long query is 400.';
  const askResponses = {
    200: {
      description: 'The answer: Server-Sent Events by default, one JSON object with streaming=false.',
      content: {
        'application/json': { schema: NlwebAskResponse },
        'text/event-stream': {
          schema: z.string().describe('`data: {message_type, query_id, …}` events, one per message, `complete` last.'),
        },
      },
    },
    ...errorResponses(400, 503),
  };
  r.get(
    NLWEB_ASK_PATH,
    {
      schema: {
        summary: 'NLWeb /ask: a natural-language question answered as schema.org results',
        description: askDescription,
        tags: ['agents'],
        operationId: 'nlwebAsk',
        querystring: NlwebAskParams,
        response: askResponses,
      },
    },
    (request, reply) => ask(request.query, reply as FastifyReply),
  );
  r.post(
    NLWEB_ASK_PATH,
    {
      schema: {
        summary: 'NLWeb /ask (POST): the same with the parameters in a JSON body',
        description: askDescription,
        tags: ['agents'],
        operationId: 'nlwebAskPost',
        body: NlwebAskParams,
        response: { ...askResponses, ...errorResponses(400, 413, 415, 503) },
      },
    },
    (request, reply) => ask(request.body, reply as FastifyReply),
  );
  r.post(
    NLWEB_ROOT_ASK_PATH,
    {
      schema: {
        summary: 'NLWeb /ask (POST) at the root, where NLWeb clients look for it',
        description:
          "The same as POST /api/nlweb/ask. GET /ask with `query` (and no `q`) answers the same way; GET /ask?q= is the website's ask page.",
        tags: ['agents'],
        operationId: 'nlwebAskRoot',
        body: NlwebAskParams,
        response: { ...askResponses, ...errorResponses(400, 413, 415, 503) },
      },
    },
    (request, reply) => ask(request.body, reply as FastifyReply),
  );
}

/**
 * Answers NLWeb `/ask` parameters (the NLWeb protocol: one JSON object, or Server-Sent Events): shared by
 * /api/nlweb/ask, POST /ask and the website's GET /ask when it is sent `query` (routes/site.ts).
 */
export function nlwebAskResponder(ctx: AppContext): (params: NlwebAskParams, reply: FastifyReply) => void {
  return (params, reply) => {
    const mode: NlwebMode =
      params.mode ??
      (params.generate_mode === undefined || params.generate_mode === 'none' ? 'list' : params.generate_mode);
    const messages = nlwebAsk(currentSnapshot(ctx), ctx.urls.base, {
      query: params.query,
      site: params.site,
      prev: typeof params.prev === 'string' ? params.prev.split(',') : params.prev,
      decontextualizedQuery: params.decontextualized_query,
      queryId: params.query_id,
      mode,
      limit: params.limit ?? 10,
    });
    reply.header('cache-control', 'no-store');
    if (params.streaming === false) {
      reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(foldMessages(messages)));
      return;
    }
    // Every message is ready at once: the stream is sent whole, one SSE event per message, `complete` last.
    reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .send(messages.map((m) => `data: ${JSON.stringify(m)}\n\n`).join(''));
  };
}
