import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { diligenceDossier, diligenceUsage } from '../../core/diligence/dossier.js';
import { NAME_MATCH_HEADER, NAME_MATCH_VALUES } from '../../core/signals/resolve.js';
import { DiligenceBody, DiligenceQuery, DiligenceResponse, DiligenceUsage } from '../../schemas/answers.js';
import { PUBLIC_CACHE } from '../conditional.js';
import { currentSnapshot, type AppContext } from '../context.js';
import { errorResponses } from '../openapi.js';

interface CompanyInput {
  company?: string | undefined;
  entity?: string | undefined;
  q?: string | undefined;
}

/** `company`, else its aliases `entity` and `q`; blank counts as absent. */
function companyOf(input: CompanyInput): string | undefined {
  for (const value of [input.company, input.entity, input.q]) {
    const trimmed = value?.trim();
    if (trimmed) return trimmed;
  }
  return undefined;
}

/** GET and POST /api/diligence.json: public-source diligence dossiers. */
export async function diligenceRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  const answer = (input: CompanyInput, reply: FastifyReply): void => {
    const snapshot = currentSnapshot(ctx);
    const company = companyOf(input);
    reply.header('content-type', 'application/json; charset=utf-8').header('cache-control', PUBLIC_CACHE);
    if (!company) {
      reply.code(200).send(JSON.stringify(diligenceUsage(snapshot, ctx.urls.base)));
      return;
    }
    const result = diligenceDossier(snapshot, ctx.urls.base, company);
    reply
      .header(NAME_MATCH_HEADER, result.how)
      .code(result.found ? 200 : 404)
      .send(JSON.stringify(result.body));
  };

  const description =
    'Documented acquirers, acquisitions made and publicly disclosed backers of a company or fund (sources: press releases, regulatory filings or both-sides disclosures, each with its URL), plus the published signal of a tracked startup. Names resolve by the one matching rule of /api/signal (name, alias, former name or confident typo; see docs/api.md, "Name matching"), never to another entity; the `X-Name-Match` header says how. Without a company: a usage envelope with coverage metadata and the answerable names. Outside the corpus or ambiguous: 404 with `dossier.found: false`, notes and `candidates` ("did you mean"; an expected outcome).';
  const matchHeader = {
    [NAME_MATCH_HEADER]: {
      type: 'string',
      enum: [...NAME_MATCH_VALUES],
      description: 'How the company name was resolved: exact, slug, alias, typo; ambiguous or none on a 404.',
    },
  };
  const responses = {
    200: {
      description: 'A dossier, or the usage envelope when no company is given.',
      headers: matchHeader,
      content: { 'application/json': { schema: DiligenceResponse.or(DiligenceUsage) } },
    },
    404: {
      description: 'Outside the tracked corpus or ambiguous: `dossier.found` is false, with `candidates`.',
      headers: matchHeader,
      content: { 'application/json': { schema: DiligenceResponse } },
    },
    ...errorResponses(400, 503),
  };

  r.get(
    '/api/diligence.json',
    {
      schema: {
        summary: 'Diligence dossier for a company or fund',
        description,
        tags: ['diligence'],
        operationId: 'getDiligence',
        querystring: DiligenceQuery,
        response: responses,
      },
    },
    (request, reply) => {
      answer(request.query, reply as FastifyReply);
    },
  );

  r.post(
    '/api/diligence.json',
    {
      schema: {
        summary: 'Diligence dossier for a company or fund (JSON body)',
        description,
        tags: ['diligence'],
        operationId: 'postDiligence',
        body: DiligenceBody,
        response: responses,
      },
    },
    (request, reply) => {
      answer(request.body, reply as FastifyReply);
    },
  );
}
