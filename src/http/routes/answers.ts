import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answerCorpus, faqPage } from '../../core/answers/corpus.js';
import { toHit } from '../../core/answers/answer-index.js';
import { MIN_CONFIDENCE } from '../../core/answers/confidence.js';
import { bestAnswer } from '../../core/answers/answer.js';
import { understand, understoodNotice } from '../../core/answers/understand.js';
import { ServiceError } from '../../domain/errors.js';
import {
  AnswerHit,
  AnswerMiss,
  AnswerQuery,
  AnswersCorpus,
  AskQuery,
  AskResponse,
  FaqPage,
} from '../../schemas/answers.js';
import { PUBLIC_CACHE, sendRendered } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';
import { LICENSE_LINK } from './signals.js';

const CONFIDENCE_NOTE = `Confidence (0 to 1) is how much of the query the matched question covers: 0.7 × the share of the query's content words found in the question + 0.3 × the share of the question's content words found in the query; a question that names a tracked startup or a diligence company with few other words is at least 0.7 for answers about it. Only hits with confidence of at least ${MIN_CONFIDENCE} are returned. A question that names a company is answered about that company only; a company that is not tracked, or a sector the service does not have, is said so (\`reason\`), never answered with another.`;

/** GET /api/answer, /api/ask, the corpus documents and the FAQ. Thin: the answer index lives in core/answers. */
export async function answersRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const urls = ctx.urls;
  // Build the corpus when a period is loaded rather than on the first request: a bad FAQ file stops the start.
  faqPage(ctx.urls.base);

  r.get(
    '/api/answer',
    {
      schema: {
        summary: 'The single best answer to a question',
        description: `${CONFIDENCE_NOTE} When no question in the corpus reaches that confidence the answer is 404 (problem+json) with \`found: false\`, the nearest questions as \`suggestions\` and a \`searchUrl\`: an expected outcome, never a random hit.`,
        tags: ['answers'],
        operationId: 'getAnswer',
        querystring: AnswerQuery,
        response: {
          200: AnswerHit,
          404: { description: 'No good match.', content: { 'application/problem+json': { schema: AnswerMiss } } },
          ...errorResponses(400, 503),
        },
      },
    },
    (request, reply) => {
      const answer = bestAnswer(currentSnapshot(ctx), ctx.urls.base, request.query.q);
      if (!answer.found) {
        const { detail, found: _found, ...extensions } = answer;
        throw new ServiceError('no-answer', { sentence: detail }, { extensions: { found: false, ...extensions } });
      }
      reply.header('cache-control', PUBLIC_CACHE);
      return toHit(answer.hit);
    },
  );

  r.get(
    '/api/ask',
    {
      schema: {
        summary: 'Ranked answers to a question',
        description: `${CONFIDENCE_NOTE} \`hits\` is empty when nothing matches well enough.`,
        tags: ['answers'],
        operationId: 'ask',
        querystring: AskQuery,
        response: { 200: AskResponse, ...errorResponses(400, 503) },
      },
    },
    (request, reply) => {
      const { q, limit } = request.query;
      const snapshot = currentSnapshot(ctx);
      const understood = understand(snapshot, ctx.urls.base, q, limit);
      reply.header('cache-control', PUBLIC_CACHE);
      if (understood.kind !== 'answers') {
        return { query: q, hits: [], notice: understoodNotice(understood, snapshot) };
      }
      return { query: q, hits: understood.hits.map(toHit) };
    },
  );

  const corpusSchema = {
    summary: 'The full question-and-answer corpus: agent queries of the current period and the FAQ',
    tags: ['answers'],
    response: { 200: AnswersCorpus, ...errorResponses(503) },
  };
  r.get('/api/answers.json', { schema: { ...corpusSchema, operationId: 'getAnswers' } }, (request, reply) => {
    sendRendered(request, reply, answerCorpus(currentSnapshot(ctx), ctx.urls.base).json, {
      link: LICENSE_LINK,
    });
  });
  r.get(
    '/api/v1/answers.json',
    { schema: { ...corpusSchema, operationId: 'getAnswersV1', description: 'Same body as /api/answers.json.' } },
    (request, reply) => {
      sendRendered(request, reply, answerCorpus(currentSnapshot(ctx), ctx.urls.base).json, {
        link: `<${urls.api('/api/answers.json')}>; rel="canonical", ${LICENSE_LINK}`,
      });
    },
  );

  r.get(
    '/api/v1/faq.json',
    {
      schema: {
        summary: 'The standalone FAQ corpus as a schema.org FAQPage',
        tags: ['answers'],
        operationId: 'getFaqV1',
        response: { 200: FaqPage },
      },
    },
    (request, reply) => {
      sendRendered(request, reply, faqPage(ctx.urls.base), { link: LICENSE_LINK });
    },
  );
}
