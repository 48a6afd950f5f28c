import { z } from 'zod';

/** Bounds the interface fixes for the answer, search, diligence and NLWeb surfaces. */
export const QUERY_MAX = 280;
export const ASK_LIMIT = { min: 1, max: 20, default: 5 } as const;
export const SEARCH_LIMIT = { min: 1, max: 50, default: 10 } as const;
export const DILIGENCE_COMPANY_MAX = 100;

const notBlank = (s: string) => s.trim().length > 0;

/** A free-text question: required, 1–280 characters, not only spaces. */
export const QueryText = z
  .string()
  .min(1)
  .max(QUERY_MAX)
  .refine(notBlank, { message: 'must contain a non-space character' });

// ---------------------------------------------------------------------------------------------------------------
// Answers

export const ANSWER_SOURCES = ['agent-query', 'faq'] as const;
export const AnswerSource = z.enum(ANSWER_SOURCES).meta({
  id: 'AnswerSource',
  description:
    '`agent-query`: generated from the current period’s data; `faq`: a standalone question about the service.',
});
export type AnswerSource = z.infer<typeof AnswerSource>;

export const Fact = z
  .object({
    claim: z.string(),
    sourceUrl: z.url().describe('A page or API URL that proves the claim.'),
  })
  .meta({ id: 'Fact' });
export type Fact = z.infer<typeof Fact>;

export const RelatedQuestion = z.object({ question: z.string(), url: z.url() }).meta({ id: 'RelatedQuestion' });
export type RelatedQuestion = z.infer<typeof RelatedQuestion>;

export const AnswerHit = z
  .object({
    question: z.string(),
    answer: z.string(),
    url: z.url().describe('Canonical URL for verification.'),
    source: AnswerSource,
    confidence: z
      .number()
      .min(0)
      .max(1)
      .describe(
        'How much of the query the matched question covers, 0 to 1: 0.7 × the share of the query’s content words found in the question + 0.3 × the share of the question’s content words found in the query (words compared after stemming, small typos tolerated). 1 means the same question; hits below 0.5 are never returned.',
      ),
    facts: z.array(Fact).describe('Supporting facts, each with the URL that proves it.'),
    related: z.array(RelatedQuestion),
  })
  .meta({ id: 'AnswerHit', description: 'One answer from the question-and-answer corpus.' });
export type AnswerHit = z.infer<typeof AnswerHit>;

export const AnswerQuery = z.object({
  q: QueryText.describe('The question, at most 280 characters.'),
});

export const AskQuery = z.object({
  q: QueryText.describe('The question, at most 280 characters.'),
  limit: z.coerce
    .number()
    .int()
    .min(ASK_LIMIT.min)
    .max(ASK_LIMIT.max)
    .default(ASK_LIMIT.default)
    .describe('Number of hits, 1 to 20 (default 5).'),
});

export const AskResponse = z
  .object({
    query: z.string(),
    hits: z.array(AnswerHit).describe('Best first; empty when no question in the corpus is a good match.'),
    notice: z
      .string()
      .optional()
      .describe(
        'Beyond the contract: why `hits` is empty when the question names a company that is not tracked or a sector the service does not have.',
      ),
  })
  .meta({ id: 'AskResponse' });
export type AskResponse = z.infer<typeof AskResponse>;

export const AnswerMiss = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.literal(404),
    detail: z.string(),
    instance: z.string().optional(),
    found: z.literal(false),
    query: z.string(),
    suggestions: z.array(RelatedQuestion).describe('Nearest questions below the confidence floor, if any.'),
    searchUrl: z.url().describe('The same query on the site-wide search.'),
    reason: z
      .enum(['no-match', 'not-tracked', 'ambiguous', 'no-sector', 'out-of-scope'])
      .optional()
      .describe(
        '`not-tracked`: the question names a company that is neither tracked nor in the diligence corpus (never answered about another); `ambiguous`: the name fits several equally (see `candidates`); `no-sector`: it asks about a sector the service does not have; `out-of-scope`: it asks for a prediction or investment advice, which the service does not give (`suggestions` says what it offers); `no-match`: nothing answers well enough.',
      ),
    candidates: z
      .array(z.object({ name: z.string(), why: z.string(), url: z.url() }))
      .optional()
      .describe('For `not-tracked`: close names ("did you mean"), never substituted.'),
    sectors: z.array(z.string()).optional().describe('For `no-sector`: the sectors the service has.'),
  })
  .meta({
    id: 'AnswerMiss',
    description: 'No question in the corpus matches well enough (confidence below 0.5): an expected outcome.',
  });
export type AnswerMiss = z.infer<typeof AnswerMiss>;

export const AnswersCorpus = z
  .object({
    meta: z.object({
      name: z.string(),
      period: z.object({ slug: z.string(), name: z.string() }),
      lastUpdated: z.iso.datetime(),
      total: z.int(),
      counts: z.object({ 'agent-query': z.int(), faq: z.int() }),
      synthetic: z.boolean(),
      license: z.string(),
      citation: z.string(),
    }),
    answers: z.array(
      z.object({
        id: z.string(),
        question: z.string(),
        answer: z.string(),
        url: z.url(),
        source: AnswerSource,
        facts: z.array(Fact),
        related: z.array(RelatedQuestion),
      }),
    ),
  })
  .meta({ id: 'AnswersCorpus', description: 'The whole question-and-answer corpus: agent queries and FAQs.' });
export type AnswersCorpus = z.infer<typeof AnswersCorpus>;

export const FaqPage = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('FAQPage'),
    name: z.string(),
    url: z.url(),
    license: z.url(),
    inLanguage: z.string(),
    mainEntity: z.array(
      z.object({
        '@type': z.literal('Question'),
        '@id': z.url(),
        name: z.string(),
        about: z.string(),
        acceptedAnswer: z.object({ '@type': z.literal('Answer'), text: z.string(), url: z.url() }),
      }),
    ),
  })
  .meta({ id: 'FaqPage', description: 'The standalone FAQ corpus as a schema.org FAQPage.' });
export type FaqPage = z.infer<typeof FaqPage>;

// ---------------------------------------------------------------------------------------------------------------
// Site search

export const SEARCH_TYPES = ['startup', 'sector', 'blog', 'comparison', 'answer', 'faq', 'research'] as const;
export const SearchType = z.enum(SEARCH_TYPES).meta({ id: 'SearchType' });
export type SearchType = z.infer<typeof SearchType>;

export const SearchHit = z
  .object({
    url: z.url(),
    title: z.string(),
    snippet: z.string().describe('Text around the matched terms.'),
    type: SearchType,
    score: z
      .number()
      .describe(
        'BM25 relevance (higher is better); a startup or sector whose name is the query comes first, its score raised by the best score of the other hits. Comparable only within one response.',
      ),
  })
  .meta({ id: 'SearchHit' });
export type SearchHit = z.infer<typeof SearchHit>;

export const SearchQuery = z.object({
  q: QueryText.describe('Search words, at most 280 characters.'),
  type: SearchType.optional().describe('Only hits of this type.'),
  limit: z.coerce
    .number()
    .int()
    .min(SEARCH_LIMIT.min)
    .max(SEARCH_LIMIT.max)
    .default(SEARCH_LIMIT.default)
    .describe('Number of hits, 1 to 50 (default 10).'),
});

export const SearchResponse = z
  .object({
    query: z.string(),
    total: z.int().min(0).describe('Documents matching, before the limit.'),
    hits: z.array(SearchHit),
    synthetic: z
      .boolean()
      .optional()
      .describe(
        'Beyond the contract: true when the startups, sectors and comparisons searched are the synthetic demo dataset (fictional startups); their hit titles say so too.',
      ),
  })
  .meta({ id: 'SearchResponse' });
export type SearchResponse = z.infer<typeof SearchResponse>;

// ---------------------------------------------------------------------------------------------------------------
// Diligence

const companyName = z.string().max(DILIGENCE_COMPANY_MAX);

export const DiligenceQuery = z.object({
  company: companyName.optional().describe('Company or fund name (at most 100 characters); fuzzy, case-insensitive.'),
  entity: companyName.optional().describe('Alias of `company`.'),
  q: companyName.optional().describe('Alias of `company`.'),
});

export const DiligenceBody = z
  .object({
    company: companyName.optional().describe('Company or fund name (at most 100 characters).'),
    entity: companyName.optional().describe('Alias of `company`.'),
    q: companyName.optional().describe('Alias of `company`.'),
  })
  .meta({ id: 'DiligenceRequest' });

export const SOURCE_KINDS = ['press-release', 'regulatory-filing', 'both-sides'] as const;
export const SourceKind = z.enum(SOURCE_KINDS);

/** YYYY-MM-DD, or YYYY-MM when only the month is on record. */
export const PartialDate = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$/, 'must be YYYY-MM-DD or YYYY-MM');

const dealFields = {
  announced: PartialDate,
  completed: z.iso.date().nullable(),
  value: z.string().nullable().describe('As disclosed, with currency; null when undisclosed.'),
  sources: z.array(z.object({ url: z.url(), kind: SourceKind, publisher: z.string() })).min(1),
  note: z
    .string()
    .optional()
    .describe('What the sources do not settle: why a completion date or value is not recorded, which date is which.'),
};

export const AcquisitionFact = z
  .object({ acquirer: z.string(), target: z.string(), ...dealFields })
  .meta({ id: 'AcquisitionFact' });
export type AcquisitionFact = z.infer<typeof AcquisitionFact>;

export const BackingFact = z
  .object({
    investor: z.string(),
    company: z.string(),
    round: z.string(),
    announced: PartialDate,
    sources: dealFields.sources,
  })
  .meta({ id: 'BackingFact' });
export type BackingFact = z.infer<typeof BackingFact>;

export const Dossier = z
  .object({
    entity: z.string(),
    found: z.boolean(),
    acquiredBy: z.array(AcquisitionFact),
    acquisitionsMade: z.array(AcquisitionFact),
    backedBy: z.array(BackingFact),
    signal: z.record(z.string(), z.unknown()).nullable().describe('The published Startup signal, when tracked.'),
    notes: z.array(z.string()),
  })
  .meta({ id: 'Dossier' });
export type Dossier = z.infer<typeof Dossier>;

export const CitationEntry = z
  .object({ '@type': z.string(), name: z.string(), url: z.url() })
  .loose()
  .meta({ id: 'CitationEntry' });

export const DossierCandidate = z
  .object({
    name: z.string(),
    kind: z.enum(['company-or-fund', 'tracked-startup', 'demo-startup']),
    why: z.string().describe('Why it is offered: the same name as another entity, a near typo, a related name.'),
    url: z.url().describe('Its dossier.'),
  })
  .meta({ id: 'DossierCandidate' });

export const DiligenceResponse = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('Dataset'),
    dossier: Dossier,
    citation: z.array(CitationEntry),
    candidates: z
      .array(DossierCandidate)
      .optional()
      .describe('On a 404 only, beyond the contract shape: "did you mean" entities, never substituted.'),
  })
  .loose()
  .meta({ id: 'DiligenceResponse', description: 'A public-source diligence dossier.' });
export type DiligenceResponse = z.infer<typeof DiligenceResponse>;

export const DiligenceUsage = z
  .object({
    '@context': z.literal('https://schema.org'),
    '@type': z.literal('Dataset'),
    usage: z.object({}).loose(),
    metadata: z.object({
      coverage: z.object({
        trackedCompanies: z.int().describe('Real startups tracked by the pipeline (0 on the synthetic demo dataset).'),
        demoStartups: z
          .int()
          .describe('Fictional startups of the synthetic demo dataset, counted apart from real companies.'),
        companiesAndFunds: z.int().describe('Real companies and funds named by the documented facts.'),
        acquirers: z.int(),
        documentedAcquisitions: z.int(),
        fundsWithPortfolios: z.int(),
        answerableEntities: z.int(),
      }),
      sourceThreshold: z.string(),
      relatedEndpoints: z.array(z.object({ method: z.string(), url: z.url(), description: z.string() })),
      license: z.object({ name: z.string(), url: z.url(), terms: z.string() }),
      citation: z.string(),
    }),
    answerableEntities: z.array(z.string()),
  })
  .loose()
  .meta({ id: 'DiligenceUsage', description: 'Usage envelope: how to ask, what is covered, who can be asked about.' });

// ---------------------------------------------------------------------------------------------------------------
// NLWeb

export const NlwebBody = z
  .object({ query: QueryText.describe('A natural-language question, at most 280 characters.') })
  .meta({ id: 'NlwebRequest' });

export const JsonLd = z
  .object({ '@context': z.literal('https://schema.org'), '@type': z.string() })
  .loose()
  .meta({
    id: 'NlwebResult',
    description:
      'schema.org JSON-LD: ItemList for list questions, Organization for one startup, Dataset for questions about the data; an empty ItemList named "No result" when nothing answers.',
  });

/** NLWeb `/ask` (GET query string or POST JSON body): the NLWeb REST parameters. Other parameters are ignored. */
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');
export const NlwebAskParams = z
  .object({
    query: QueryText.describe('The question, at most 280 characters.'),
    site: z
      .string()
      .max(100)
      .optional()
      .describe('Site to ask (this server holds one; echoed in each result). Default "all".'),
    prev: z
      .union([z.string().max(2000), z.array(z.string().max(280)).max(20)])
      .optional()
      .describe('Earlier queries of the conversation (comma list or array); accepted, not used to rewrite the query.'),
    decontextualized_query: z
      .string()
      .trim()
      .min(1)
      .max(280)
      .optional()
      .describe('The query rewritten to stand alone: when sent, it is the query answered.'),
    streaming: flag
      .optional()
      .describe('Default true: Server-Sent Events (text/event-stream). "false" or "0": one JSON object.'),
    query_id: z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'must be 1 to 100 letters, digits, ".", "_", ":" or "-"')
      .optional()
      .describe('Echoed in every message; generated when absent.'),
    generate_mode: z
      .enum(['none', 'list', 'summarize', 'generate'])
      .optional()
      .describe(
        'none or list: results only; summarize: also a `summary`; generate: also an `nlws` answer with its items.',
      ),
    mode: z
      .enum(['list', 'summarize', 'generate'])
      .optional()
      .describe('The same as generate_mode (the name the NLWeb documentation uses).'),
    limit: z.coerce.number().int().min(1).max(50).optional().describe('At most this many results (default 10).'),
  })
  .loose();
export type NlwebAskParams = z.output<typeof NlwebAskParams>;

export const NlwebAskResult = z
  .object({
    url: z.url(),
    name: z.string(),
    site: z.string(),
    siteUrl: z.url(),
    score: z
      .int()
      .min(0)
      .max(100)
      .describe(
        '0–100: an answer’s confidence; a search hit relative to the best hit (at most 60, below a confident answer’s 70).',
      ),
    description: z.string(),
    schema_object: z.record(z.string(), z.unknown()).describe('The item as schema.org JSON-LD (without @context).'),
    ranking_type: z
      .enum(['answer', 'search'])
      .describe('answer: from the answer service; search: from the site search.'),
  })
  .meta({ id: 'NlwebAskResult' });

export const NlwebAskResponse = z
  .object({
    query_id: z.string(),
    results: z.array(NlwebAskResult),
    api_version: z.string(),
    decontextualized_query: z.string(),
    summary: z.string().optional().describe('With generate_mode summarize: the answer service’s answer.'),
    nlws: z
      .object({
        answer: z.string(),
        items: z.array(z.object({ url: z.string(), name: z.string(), description: z.string().optional() })),
      })
      .optional()
      .describe('With generate_mode generate: the answer and the items it rests on (its page and its sources).'),
    no_results: z.string().optional().describe('Why nothing (or no answer) was found.'),
  })
  .meta({
    id: 'NlwebAskResponse',
    description:
      'The non-streaming answer: `results` plus one key per other message type. Streaming, the same content arrives as Server-Sent Events `data: {message_type, query_id, …}`: api_version, decontextualized_query, result_batch {results} or no_results {message}, summary {message} / nlws {answer, items}, complete.',
  });
