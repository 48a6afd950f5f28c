import type { Snapshot } from '../../snapshot/snapshot.js';
import { diligenceIndex, subjectName, type Subject } from '../diligence/dossier.js';
import { editDistance, foldName, isDomain, isGenericWord, PART_OF_NAME, STRICT_NEAR } from '../../domain/matcher.js';
import { indexTerm, isStopWord, words } from '../search/text.js';
import { sectors } from '../../domain/sectors.js';
import type { SectorSlug } from '../../schemas/enums.js';
import { siteUrls } from '../../domain/urls.js';
import type { ScoredAnswer } from './answer-index.js';
import { comparisonAnswer } from './agent-queries.js';
import { answerCorpus } from './corpus.js';
import { LIST_KINDS, slugify, type AnswerEntry } from './entry.js';

/**
 * What a question is about, before the answer index ranks anything:
 *  - a company it names (a tracked startup or a diligence entity, by the one matching rule): only answers about that
 *    company may answer, never one about another;
 *  - a company it names that is neither tracked nor in the corpus: "not tracked", with "did you mean" candidates;
 *  - two tracked startups it names: their comparison, built for any pair;
 *  - a sector the service does not have ("fintech startups"): "no such sector", with the sectors it has;
 *  - a sector it has, with a request for its top or its fastest: that list;
 *  - "what is X": the definition (FAQ) is preferred to a statistic about X.
 * /api/answer, /api/ask and NLWeb all go through `understand`.
 */
export type Understood =
  | { kind: 'answers'; hits: ScoredAnswer[]; about?: string | undefined }
  | {
      kind: 'not-tracked';
      name: string;
      candidates: { name: string; why: string; url: string }[];
      /** The name fits several tracked entities equally (the candidates): not untracked, but not answerable either. */
      ambiguous?: boolean;
      /** A company of the diligence corpus asked about for an engineering signal, which only tracked startups have. */
      inDiligence?: boolean;
    }
  | {
      kind: 'no-sector';
      word: string;
      sectors: string[];
      /** Sectors whose own description holds a word of the industry asked about ("food" of "foodtech"). */
      nearest: string[];
    }
  /** A prediction or investment advice: what the service cannot do, and what it offers instead. */
  | { kind: 'out-of-scope'; offers: { question: string; url: string }[] };

/**
 * Questions that ask for a prediction or investment advice. The service reports engineering activity; it does not
 * say who will raise, list or be acquired, nor what to invest in. ("Who invested in X?" asks for backers: a fact.)
 */
const OUT_OF_SCOPE: RegExp[] = [
  /\bshould\s+(?:i|we)\s+(?:invest|buy|back|fund|bet)\b/i,
  /\b(?:best|good|safe|smart|worth(?:while)?)\s+(?:investment|bet|buy)s?\b/i,
  /\bworth\s+investing\b/i,
  /\bwill\b.*\b(?:raise|ipo|go\s+public|be\s+acquired|get\s+acquired|exit|be\s+worth)\b/i,
  /\b(?:put|invest|place)\s+(?:my\s+|our\s+)?money\b/i,
  /\bpredict(?:s|ion|ions)?\b|\bforecast\b/i,
  /\bnext\s+unicorns?\b|\bbecome\s+a\s+unicorn\b/i,
  /\b(?:about|going|likely|set|expected)\s+to\s+(?:raise|ipo|go\s+public|be\s+acquired|get\s+acquired|exit)\b/i,
];
/** Facts about a company the service does not hold: its people, valuation, revenue, share price. */
const UNHELD_FACTS =
  /\b(?:ceo|cto|cfo|coo|founders?|founded\s+by|executives?|valuation|valued\s+at|revenues?|share\s+price|stock\s+price)\b/i;
/**
 * A question whether the service's own signal foretells a deal ("Does the signal predict funding rounds?", "Does a
 * jump in commits tell you a startup is about to raise?") asks about the method and its evidence, not for a
 * prediction: the FAQ that says how that is tested answers it.
 */
const ASKS_WHETHER_SIGNAL_PREDICTS =
  /^\s*(?:does|do|did|can|could|would|is|are|has|have|how\s+(?:well|accurately|reliably))\b.*\b(?:signals?|scores?|rankings?|data|commits?|activity|acceleration|accelerating|metrics?|velocity|engineering|backtest|jump|spike|surge|increase)\b.*\b(?:predict\w*|forecast\w*|tells?|indicat\w*|means?|shows?|foresee\w*|anticipat\w*|correlat\w*)\b/i;

function outOfScope(cues: string): boolean {
  if (UNHELD_FACTS.test(cues)) return true;
  return OUT_OF_SCOPE.some((pattern) => pattern.test(cues)) && !ASKS_WHETHER_SIGNAL_PREDICTS.test(cues);
}

/**
 * Words a stranger uses for the service's own vocabulary, rewritten before the answer index ranks (names are read
 * from the question as asked): "speeding up" or "heating up" is accelerating, "which industry" asks for a sector, "hot" is trending, "where … based" is geography ("based on" is not), an
 * MCP client by its product name is an MCP client, "HR startups" are HR Tech startups.
 */
const REWRITES: [RegExp, string][] = [
  [
    /\bspeed(?:s|ing)?\s+up\b|\bheat(?:s|ing)?\s+up\b|\bpick(?:s|ing)?\s+up\s+speed\b|\bgain(?:s|ing)?\s+speed\b/gi,
    'accelerating',
  ],
  // "Which industry …": the service's industries are its sectors.
  [/^(\s*(?:which|what)\s+)industry\b/gi, '$1sector'],
  [/\b(?:hot|buzzing|popular)\b/gi, 'trending'],
  [/\b(?:right\s+now|at\s+the\s+moment|currently)\b/gi, ''],
  [/\b(?:based|located|headquartered)\b(?!\s+(?:on|upon)\b)/gi, 'geography'],
  // "What is the ranking based on?": a frame, not a word of the subject (and never the word "base").
  [/\bbased\s+(?:on|upon)\b/gi, ''],
  [/\bclaude\s+(?:desktop|code)\b|\bcursor\b|\bvs\s*code\b|\bwindsurf\b/gi, 'MCP client'],
  [/\bcounts?\s+as\b/gi, 'is'],
  [/\bhr\s+(startups?|companies|company|sector)\b/gi, 'HR Tech $1'],
  [/\bspace\s+(startups?|companies|company|sector)\b/gi, 'Space Tech $1'],
  [/\blegal\s+(startups?|companies|company|sector)\b/gi, 'Legal Tech $1'],
  [/\b(?:real\s+estate|property)\s+(startups?|companies|company|sector)\b/gi, 'PropTech $1'],
  [/\b(?:agriculture|farming|agri)\s+(startups?|companies|company|sector)\b/gi, 'AgTech $1'],
  [/\b(?:games|video\s+game|game)\s+(startups?|companies|company|studios?|sector)\b/gi, 'Gaming $1'],
  // Everyday words for the service's terms (its FAQ and glossary words).
  [/\bsprees?\b/gi, 'burst'],
  [/\bmade[-\s]up\b|\binvented\b|\bimaginary\b/gi, 'fictional'],
  [/\bprice[sd]?\b|\bpricing\b/gi, 'cost'],
  [/\btop\s+(?:20|twenty)\b/gi, 'trending'],
  [/\b(?:newest|most\s+recent|freshest)\b/gi, 'latest'],
  // "older weeks", "earlier periods": the past periods the history FAQ speaks of.
  [/\b(?:older|earlier|previous|prior|old)\s+(?:weeks|periods)\b/gi, 'past periods'],
  [/\bsign(?:s|ing|ed)?[-\s]up\b/gi, 'signup'],
  [/\brequests?\s+(?:a|per|an|each)\s+(?:second|minute|hour|day)\b/gi, 'rate limit'],
  [/\b(?:mov(?:e|es|ing)|switch(?:es|ing)?|port(?:s|ing)?)\s+(?:over\s+)?to\b/gi, 'migrating to'],
  [/\bship(?:s|ping|ped)?\b(?=\s+(?:releases?|code|features?|faster|more|often|updates?)\b)/gi, 'deploy'],
  [/\bmore\s+(?:often|frequently)\b/gi, 'frequency'],
  // The composite score is what startups are ranked by.
  [/\bcomposite\s+scores?\b/gi, 'ranking composite score'],
  // "doesn't … show up in trending", "isn't … listed": what the FAQ calls missing.
  [
    /\b(?:do|does|did|is|are|was|were)(?:n['’]t|\s+not)\s+((?:[^\s?!.]+\s+){0,8}?)(?:show(?:ing)?\s+up|appear(?:ing)?|listed|included)\b/gi,
    '$1missing',
  ],
  [/\b(?:is|are|was|were)(?:n['’]t|\s+not)\s+(?:in|on|among)\b/gi, 'missing from'],
  // "a company you don't have", "a name that doesn't exist": what the service's answers call not found.
  [
    /\b(?:you|the\s+service|it|that|which)\s+(?:do|does)(?:n['’]t|\s+not)\s+(?:have|track|cover|know|hold|list|exist)\b/gi,
    'not found',
  ],
  // "How many credits do I have left?", "remaining credits": what the balance says.
  [/\b(credits?)\b((?:\s+[^\s?!.]+){0,5}?)\s+(?:left|remain(?:s|ing)?)\b/gi, '$1$2 balance remaining'],
  [/\bremaining\s+(credits?)\b/gi, '$1 balance remaining'],
  // "Do I have to …", "do we need to …": what is required.
  [/\b(?:have|has|need)\s+to\b/gi, 'need'],
  // "raise money", "raising a round": funding, as the service's answers say.
  [
    /\b(rais(?:e|es|ed|ing))\s+(?:money|capital|cash|funds|(?:a|the|their|its)\s+(?:next\s+)?round)\b/gi,
    '$1 funding round',
  ],
  // "is about to raise", "is going to be acquired": what would come next, a prediction.
  [/\b(?:is|are)\s+(?:about|going|likely|set|expected)\s+to\b/gi, 'predict'],
];

function rewrite(query: string): string {
  return REWRITES.reduce((q, [pattern, to]) => q.replace(pattern, to), query)
    .replace(/\s+/g, ' ')
    .trim();
}

const MAX_SPAN = 5;
/** How sure the comparison is of two tracked startups a question names exactly: the names are the evidence. */
const NAMED_PAIR_CONFIDENCE = 0.8;
/**
 * How sure an answer is that is what a question asks of the one company it names: a tracked startup's signal for
 * words of an engineering signal, a deal entry in the direction of the deal verb.
 */
const NAMED_ASK_CONFIDENCE = 0.7;
/** Lower-case words that name companies in the corpus but are everyday words in questions about the service. */
const COMMON_WORDS = new Set(['sun', 'base', 'index', 'modal', 'temporal', 'neon', 'astro', 'slack', 'loom']);

/**
 * Industries people ask about that are not sectors of the service, each with the sectors nearest it: those whose
 * software serves it or that it builds on (payments plumbing for fintech, clinical software for biotech). A question
 * about one is told there is no such sector and offered these.
 */
const NEAR_SECTORS: Record<string, SectorSlug[]> = Object.fromEntries(
  (
    [
      ['fintech banking payments neobank neobanks wealthtech', ['ecommerce-infrastructure', 'web3', 'enterprise-saas']],
      ['regtech', ['legal-tech', 'enterprise-saas']],
      ['insurtech insurance', ['enterprise-saas', 'healthcare']],
      ['cybersecurity security', ['enterprise-saas', 'data-infrastructure']],
      ['biotech pharma', ['healthcare']],
      ['climate climatetech cleantech greentech energy', ['agtech', 'proptech']],
      ['mobility automotive ev drone drones', ['robotics', 'supply-chain']],
      ['semiconductor semiconductors hardware nanotech', ['robotics', 'data-infrastructure']],
      ['ai quantum devtools', ['data-infrastructure', 'enterprise-saas']],
      ['media adtech martech', ['social-community', 'enterprise-saas']],
      ['travel traveltech retail', ['ecommerce-infrastructure']],
      ['defense defence', ['space-tech', 'robotics']],
      ['telecom telecoms', ['data-infrastructure', 'social-community']],
      ['foodtech food', ['agtech']],
    ] as const
  ).flatMap(([names, near]) => names.split(' ').map((n) => [n, [...near]])),
);
/** Industries people ask about that are not sectors of the service. */
const NOT_SECTORS = new Set(Object.keys(NEAR_SECTORS));
/**
 * Words that name an industry wherever they stand ("top fintech", "which biotech is accelerating"): a "…tech" word
 * no sector is named by, and industries no question about the service uses otherwise ("security", "payments" and
 * "ai" are words of the service's own answers too, so they name an industry only before "startups" or "companies").
 */
const INDUSTRY_WORD = /^(?:[a-z]{2,}tech|cybersecurity|pharma|neobanks?|semiconductors?|quantum|telecoms?|automotive)$/;

/** The nouns an industry qualifies in a question ("fintech startups", "drone delivery companies"). */
const HEAD_NOUN = /^(startups?|companies|company)$/;

/**
 * Words that qualify startups without naming an industry: determiners, pronouns and everyday adjectives ("these
 * startups", "actual companies", "other startups", "big tech companies").
 */
/** Words that ask for a list of startups, not for an industry ("best tech startups", "fastest growing …"). */
const LIST_WORDS =
  /^(?:top|best|strongest|leading|fastest|faster|growing|accelerating|trending|hottest|hot|biggest|largest|most|new|newest|emerging|promising|rising|good|great|busiest|busy|liveliest|quietest|slowest|highest|lowest|active)$/;

const QUALIFIERS = new Set(
  (
    'these those this that such other others another actual real genuine existing individual particular specific ' +
    'certain similar different various several many few both either neither same whole entire big favourite favorite ' +
    'own typical average median usual ordinary normal'
  ).split(' '),
);

/**
 * Cue words are whole words of the question outside the names it holds: "Ventetmora Payroll" pays nothing, and a
 * startup named "… Versus" is compared with nobody.
 */
const DEAL_VERBS =
  /^(?:acquire[sd]?|acquiring|acquirer|acquisitions?|bought|buys?|buying|buyer|owns?|owned|owner|owning|purchase[sd]?|purchasing|pays?|paid|paying|snapped|snapping|takeovers?)$/;
const COMPARE_WORDS = /^(vs|versus|compare|compared|comparison|against|and|or)$/;
/** Words that ask for a comparison whatever else the question says ("and", "or" need two names). */
const STRONG_COMPARE = /\b(?:vs|versus|compar\w*|against)\b/i;
/** Answers about one named startup or company: only a question that names it may get them. */
const NAMED_KINDS = new Set<AnswerEntry['kind']>(['startup', 'comparison', 'diligence']);

/**
 * Everyday names of sectors a stranger uses instead of the sector's own ("logistics startups" for Supply Chain). Only
 * words that name nothing else the service answers about; an industry the service has no sector for is NOT_SECTORS.
 */
const SECTOR_ALIASES: Record<string, string[]> = {
  // Everyday names, then words of the sector's own description (src/domain/sectors.ts): "Blockchain protocols,
  // wallets, …" is what Web3 covers, so a question about blockchain startups asks for it.
  'supply-chain': ['logistics', 'freight', 'warehousing', 'procurement', 'inventory', 'warehouse'],
  agtech: ['agriculture', 'agritech', 'farming', 'farm', 'agricultural', 'farmer', 'crop'],
  proptech: [
    'real estate',
    'property tech',
    'real estate tech',
    'construction tech',
    'property management',
    'landlord',
    'tenant',
  ],
  edtech: ['education', 'education tech', 'e-learning', 'learning platform', 'school', 'teacher', 'student'],
  healthcare: [
    'health care',
    'healthtech',
    'health tech',
    'digital health',
    'medtech',
    'medical',
    'clinical',
    'diagnostics',
    // Whom the sector's software serves, as a stranger describes it ("software for hospitals").
    'hospital',
    'doctor',
    'patient',
    'clinic',
  ],
  'hr-tech': [
    'human resources',
    'recruiting',
    'recruitment',
    'hiring tech',
    'payroll',
    'workforce',
    'recruiter',
    'employee',
    'people analytics',
  ],
  'space-tech': ['satellite', 'aerospace', 'earth observation', 'rocket', 'spacecraft'],
  web3: ['web 3', 'blockchain', 'crypto', 'on-chain', 'smart contract', 'smart-contract', 'wallet', 'defi', 'nft'],
  'ecommerce-infrastructure': [
    'e-commerce',
    'ecommerce',
    'online store',
    'online stores',
    'online shop',
    'storefront',
    'checkout',
    'headless commerce',
  ],
  'data-infrastructure': ['database', 'data pipeline', 'data streaming', 'observability', 'data warehouse'],
  robotics: ['robot', 'autonomy', 'industrial automation'],
  'legal-tech': [
    'legaltech',
    'e-discovery',
    'compliance',
    'lawyer',
    'attorney',
    'law firm',
    'contracts',
    'contract management',
  ],
  gaming: ['video game', 'multiplayer', 'game engine', 'gamer', 'game studio'],
  'social-community': ['social network', 'social media', 'community', 'communities', 'messaging'],
  'enterprise-saas': ['saas', 'b2b', 'business software'],
};

/** Sector slugs by the words and phrases that name them in a question (each also in the plural). */
const SECTOR_WORDS: [RegExp, string][] = sectors.map((s) => {
  const names = [s.name, s.slug.replace(/-/g, ' '), ...(SECTOR_ALIASES[s.slug] ?? [])].map((n) =>
    n
      .toLowerCase()
      .replace(/&/g, ' ')
      // "EdTech" is also written "ed tech", "ed-tech".
      .replace(/([a-z])tech\b/g, '$1 tech')
      .replace(/[^a-z0-9]+/g, '[\\s-]*'),
  );
  return [new RegExp(`\\b(?:${names.join('|')})(?:s|es)?\\b`, 'gi'), s.slug];
});

/** A hit this close to 1 asks the question as asked: no rule about the kind of question moves another above it. */
const EXACT = 0.95;

/** How sure an answer is that is the list of the sector a question names and asks the top or the fastest of. */
const SECTOR_LIST_CONFIDENCE = 0.75;

/** Each stage's fastest-accelerating list, by the words that name the stage in a question. */
const STAGE_WORDS: Record<string, RegExp> = {
  'fastest-accelerating-pre-seed': /\bpre[-\s]?seed\b/i,
  'fastest-accelerating-seed': /(?<!pre[-\s]?)\bseed\b/i,
  'fastest-accelerating-series-a-b': /\bseries\s*(?:a|b)\b/i,
  'fastest-accelerating-growth': /\bgrowth[-\s](?:stage|phase)\b|\bgrowth\s+(?:startups|companies)\b/i,
};

function stageNamed(entry: AnswerEntry, query: string): boolean {
  const words = STAGE_WORDS[entry.id];
  return words === undefined || words.test(query);
}

/** Words of sectors' names that name no one sector ("Legal Tech", "Data Infrastructure", "Social & Community"). */
const SECTOR_NAME_HEADS = new Set(['tech', 'technology', 'infrastructure']);
/** Each sector's own name words that name it in a question ("data" of Data Infrastructure, "space" of Space Tech). */
const SECTOR_NAME_WORDS = new Map(
  sectors.map((s) => [
    s.slug as string,
    new Set(words(s.name).filter((w) => !SECTOR_NAME_HEADS.has(w) && w.length > 1)),
  ]),
);
const SECTOR_LIST_KINDS = new Set<AnswerEntry['kind']>(['sector-top', 'sector-fastest']);

/** Is `entry` not a sector's list, or the list of a sector the question names (by a phrase or a word of its name)? */
function sectorListNamed(entry: AnswerEntry, asked: string): boolean {
  if (!SECTOR_LIST_KINDS.has(entry.kind) || entry.sector === undefined) return true;
  if (sectorOf(asked) === entry.sector) return true;
  const own = SECTOR_NAME_WORDS.get(entry.sector);
  return own !== undefined && words(asked).some((w) => own.has(w));
}

/** The list a question about a sector asks for: its fastest accelerating, or its top. */
function sectorWants(query: string): 'fastest-accelerating-' | 'top-' | undefined {
  if (/\b(?:accelerat\w*|fastest|growing|speeding\s+up|picking\s+up|heating\s+up|gaining\s+speed)\b/i.test(query))
    return 'fastest-accelerating-';
  if (/\b(?:top|best|strongest|leading|leads?|leaders?|leaderboard|trending|ranked|ranking|rank)\b/i.test(query))
    return 'top-';
  return undefined;
}

/**
 * The sector a question names: the one of the longest phrase that names a sector ("smart contracts" is Web3, not
 * the contracts of Legal Tech), the first sector on a tie.
 */
function sectorOf(query: string): string | undefined {
  let best: { slug: string; length: number } | undefined;
  for (const [pattern, slug] of SECTOR_WORDS)
    for (const m of query.matchAll(pattern))
      if (!best || m[0].length > best.length) best = { slug, length: m[0].length };
  return best?.slug;
}

interface Mention {
  subject: Subject;
  start: number;
  end: number;
}

interface Token {
  text: string;
  lower: string;
  /** Written with a possessive ("Supabase's"): the name ends here. */
  possessive: boolean;
}

function tokens(query: string): Token[] {
  return (query.match(/[\p{L}\p{N}][\p{L}\p{N}.&'’-]*/gu) ?? []).map((raw) => {
    const possessive = /['’]s$/u.test(raw);
    const text = raw.replace(/['’]s$/u, '').replace(/[.'’-]+$/u, '');
    return { text, lower: text.toLowerCase(), possessive };
  });
}

/** Capitalised words that follow a company's name without being part of it ("the Supabase Series A"). */
const NAME_FOLLOWERS = /^(series|seed|round|pre-seed|ipo)$/;

/**
 * Nouns that make a company name a modifier of the service's own vocabulary: "GitHub activity", "GitHub stars" are
 * about the data the service reads, not about the company GitHub.
 */
const DATA_NOUNS =
  /^(activity|data|commits?|stars?|repositories|repository|repos?|organi[sz]ations?|orgs?|api|tokens?|accounts?|profiles?|metrics|signals?|usernames?|users?|events|issues|pull|releases?)$/;

/** A word of a name: capitalised, or holding a digit among letters ("neo4j"); a number alone ("+300%") is none. */
const isProperToken = (t: Token) =>
  (/^\p{Lu}/u.test(t.text) || (/\p{N}/u.test(t.text) && /\p{L}/u.test(t.text))) && !isStopWord(t.lower);

/**
 * The run of proper-noun tokens around tokens [start, end): capitalised words beside a name are part of the name
 * ("Sun Life", "Google Ventures", "Sentry Insurance"), so a name that resolves inside a longer run names something
 * else. The question's first word is capitalised as a sentence start, not as a name, and never extends a run.
 */
function properRun(toks: Token[], start: number, end: number): { start: number; end: number } {
  let s = start;
  let e = end;
  while (s > 1 && isProperToken(toks[s - 1]!) && !toks[s - 1]!.possessive) s--;
  // "The Sun", "The Wiz": a capitalised article inside the question belongs to the name it precedes.
  if (s > 1 && toks[s - 1]!.text === 'The') s--;
  while (e < toks.length && !toks[e - 1]!.possessive && isProperToken(toks[e]!) && !NAME_FOLLOWERS.test(toks[e]!.lower))
    e++;
  return { start: s, end: e };
}

/**
 * Companies the question names: the longest spans the matcher resolves strictly (exact name, slug or alias, or a
 * misspelt generic word beside the exact distinctive ones), left to right. A span inside a longer proper name is not
 * the company asked about: it is `unknown`, asked about by its full name (answered "not tracked", with the near names
 * as candidates).
 */
function mentions(
  snapshot: Snapshot,
  baseUrl: string,
  toks: Token[],
  known: ReadonlySet<string>,
): { found: Mention[]; related: Mention[]; unknown: { start: number; end: number }[] } {
  const matcher = diligenceIndex(snapshot, baseUrl).matcher;
  const found: Mention[] = [];
  const related: Mention[] = [];
  const unknown: { start: number; end: number }[] = [];
  let i = 0;
  while (i < toks.length) {
    let taken = 0;
    for (let len = Math.min(MAX_SPAN, toks.length - i); len >= 1 && !taken; len--) {
      const span = toks.slice(i, i + len);
      const first = span[0]!;
      const last = span[len - 1]!;
      if (isStopWord(first.lower) || isStopWord(last.lower)) continue;
      const words = foldName(span.map((t) => t.text).join(' '));
      if (words.length === 0 || words.every(isGenericWord)) continue;
      const capitalised = span.some((t) => /^\p{Lu}/u.test(t.text) || /\p{N}/u.test(t.text));
      const r = matcher.resolve(span.map((t) => t.text).join(' '), { typos: false });
      if (r.status === 'match') {
        if (len === 1 && !capitalised && COMMON_WORDS.has(first.lower) && !inDealContext(toks, i)) continue;
        const next = toks[i + len];
        const before = toks[i - 1];
        if (
          r.item.kind === 'entity' &&
          ((next && DATA_NOUNS.test(next.lower) && !last.possessive) ||
            (before && /^(?:on|from|via|through)$/.test(before.lower) && i + len === toks.length))
        ) {
          taken = len; // "GitHub activity", "active on GitHub": the service's data, not the company
          continue;
        }
        const run = properRun(toks, i, i + len);
        if (run.start < i || run.end > i + len) {
          unknown.push(run);
          taken = run.end - i;
          continue;
        }
        found.push({ subject: r.item, start: i, end: i + len });
        taken = len;
      } else if (len === 1 && isDomain(first.text)) {
        // A domain names whoever holds it; only a recorded one resolves (above).
        unknown.push({ start: i, end: i + 1 });
        taken = 1;
      } else if (
        (capitalised || foreignWord(first.lower, known)) &&
        r.candidates.some((c) => c.why.endsWith(PART_OF_NAME) || c.why.endsWith(STRICT_NEAR))
      ) {
        // A near name or the first words of one ("Zepatra" for "Zepatra Cloud", "daxetra robotics" for Daxettra
        // Robotics): asked about, but not that name. In lower case, only from a word the service does not use.
        unknown.push({ start: i, end: i + len });
        taken = len;
      } else if (r.status === 'none' && r.candidates.length && capitalised) {
        // A documented related name ("Sequoia Capital", "Terraform"): remembered, never answered as the entity.
        const why = r.candidates[0]!.why;
        if (
          why.toLowerCase().startsWith(
            `${span
              .map((t) => t.text)
              .join(' ')
              .toLowerCase()}:`,
          )
        ) {
          related.push({ subject: r.candidates[0]!.item, start: i, end: i + len });
          taken = len;
        }
      }
    }
    i += taken || 1;
  }
  return { found, related, unknown };
}

/** A deal verb whose object is a company ("bought", "invested in", "led"). */
const DEAL_BEFORE = /^(?:acquired|acquire[sd]?|bought|buys?|owns|purchased|backed|backs|funded|funds|invested|led)$/;
/** A deal noun a company's name stands before ("Loom's acquirer", "temporal investors"). */
const DEAL_AFTER =
  /^(?:backers?|investors?|acquirers?|acquisitions?|owners?|buyers?|funding|rounds?|funders?|shareholders?)$/;

/**
 * Whether the word at `i` is the company of a deal ("who bought loom", "investors in temporal", "temporal's
 * investors"): a name that is also an everyday word, written in lower case, names the company there.
 */
function inDealContext(toks: Token[], i: number): boolean {
  const before = toks[i - 1]?.lower;
  const viaPreposition = before && /^(?:in|of|into)$/.test(before) ? toks[i - 2]?.lower : before;
  if (viaPreposition && (DEAL_BEFORE.test(viaPreposition) || DEAL_AFTER.test(viaPreposition))) return true;
  const next = toks[i + 1]?.lower;
  return next !== undefined && DEAL_AFTER.test(next);
}

/** Patterns of a question about one named company; the group is the name. */
const COMPANY_QUESTIONS: RegExp[] = [
  /\b(?:signals?|commits?|contributors?|activity|velocity|growth|ranking|rank|stage|repositories|data)\s+(?:for|of|at|on)\s+(.+?)\s*[?.!]*$/i,
  /^(?:how is|how's|how are|tell me about|what about|info on|information on)\s+(.+?)(?:\s+doing)?\s*[?.!]*$/i,
  /^(?:who|which company|what company)\s+(?:acquired|bought|owns|backs|backed|funds|funded|invested in|purchased)\s+(.+?)\s*[?.!]*$/i,
  /^(?:how many|how much)\s+\w+\s+(?:did|does|has)\s+(.+?)\s+(?:make|made|have|had|raise|raised|pay|paid|create)\b/i,
  /^(?:was|is|has)\s+(.+?)\s+(?:acquired|bought|funded|tracked|accelerating)\s*[?.!]*$/i,
  /^(?:which|what)\s+(?:rounds?|deals?|companies|startups|investments|acquisitions)\s+(?:did|has|have|does)\s+(.+?)\s+(?:lead|led|back|backed|fund|funded|acquire|acquired|buy|bought|make|made|invest\s+in)\b/i,
];

/**
 * A name the question asks about that nothing resolves: capitalised, not only generic or stop words, and, unless the
 * question asks for a signal or a deal, not one of the service's own terms (`terms`: "Tell me about MCP", "Tell me
 * about Deep Signal" ask about the service).
 */
function unknownCompany(query: string, terms: ServiceTerms): string | undefined {
  for (const pattern of COMPANY_QUESTIONS) {
    const m = pattern.exec(query.trim());
    if (!m) continue;
    const name = m[1]!.replace(/^(?:the|a|an)\s+/i, '').trim();
    const words = tokens(name);
    if (words.length === 0 || words.length > MAX_SPAN) continue;
    if (!words.some((t) => /^\p{Lu}/u.test(t.text) || /\p{N}/u.test(t.text))) continue;
    if (words.every((t) => isStopWord(t.lower) || isGenericWord(t.lower))) continue;
    // A term asked for a signal or a deal is still a company's name ("Who acquired OpenAI?").
    const rest = query.replace(name, ' ');
    if (terms.has(name) && !SIGNAL_INTENT.test(rest) && !DILIGENCE_INTENT.test(rest)) continue;
    return name;
  }
  return undefined;
}

/** The service's own terms: what its FAQ's questions and keywords name ("MCP", "Deep Signal", "x402", "CSV"). */
interface ServiceTerms {
  has(name: string): boolean;
}
const serviceTermsOf = new WeakMap<object, ServiceTerms>();

function serviceTerms(corpus: ReturnType<typeof answerCorpus>): ServiceTerms {
  let terms = serviceTermsOf.get(corpus);
  if (!terms) {
    const text = ` ${corpus.entries
      .filter((e) => e.kind === 'faq')
      .flatMap((e) => [e.question, ...e.keywords])
      .map((t) => words(t).join(' '))
      .join(' | ')} `;
    terms = { has: (name) => words(name).length > 0 && text.includes(` ${words(name).join(' ')} `) };
    serviceTermsOf.set(corpus, terms);
  }
  return terms;
}

/**
 * The object of a deal question written in lower case ("Who owns bunq?"): a deal question names a company whatever
 * its case, when none of its words is the service's own vocabulary ("Who owns the data?").
 */
function unknownDealObject(query: string, known: ReadonlySet<string>): string | undefined {
  const m =
    /^(?:who|which company|what company)\s+(?:acquired|bought|owns|backs|backed|funds|funded|invested in|purchased)\s+(.+?)\s*[?.!]*$/i.exec(
      query.trim(),
    ) ?? /^(?:was|is|has)\s+(.+?)\s+(?:been\s+)?(?:acquired|bought|funded)\s*[?.!]*$/i.exec(query.trim());
  if (!m) return undefined;
  const name = m[1]!.replace(/^(?:the|a|an)\s+/i, '').trim();
  const ws = tokens(name);
  if (ws.length === 0 || ws.length > MAX_SPAN) return undefined;
  if (ws.some((t) => isStopWord(t.lower) || known.has(t.lower) || isGenericWord(t.lower))) return undefined;
  return name;
}

/**
 * A word naming an industry the service has no sector for, as in "fintech startups", "the crypto sector" or
 * "climate tech companies" (a compound with "tech" is read whole: "legal tech" is a sector, "climate tech" is not).
 */
function missingSector(toks: Token[]): string | undefined {
  for (let i = 0; i + 1 < toks.length; i++) {
    const next = toks[i + 1]!.lower;
    if (!HEAD_NOUN.test(next) && !/^(sectors?|industry|industries)$/.test(next)) continue;
    // "fintech-ish", "fintech-like": the industry with a hedge is still that industry.
    const word = toks[i]!.lower.replace(/-(?:ish|like|y|related|adjacent)$/, '');
    if (NOT_SECTORS.has(word)) return toks[i]!.text;
    // "insurtech", "govtech": a "…tech" word that names no sector of the service.
    if (/^[a-z]{2,}tech$/.test(word) && !sectorOf(word)) return toks[i]!.text;
    const before = toks[i - 1];
    // "insurance tech startups", "climate tech companies": a "… tech" compound is read whole, and is a sector
    // only when it names one ("legal tech", "ed tech", "real estate tech").
    const compound = (n: number) =>
      toks
        .slice(Math.max(0, i - n), i + 1)
        .map((t) => t.lower)
        .join(' ');
    if (
      /^(tech|technology)$/.test(word) &&
      before &&
      !isStopWord(before.lower) &&
      !QUALIFIERS.has(before.lower) &&
      !LIST_WORDS.test(before.lower) &&
      ![1, 2, 3].some((n) => sectorOf(compound(n))) &&
      !sectorOf(`${before.lower}tech`)
    )
      return `${before.text} ${toks[i]!.text}`;
  }
  return undefined;
}

/** An industry named without "startups" ("top fintech", "fastest growing biotech"), when no sector is named. */
function bareIndustry(toks: Token[]): string | undefined {
  return toks.find((t) => INDUSTRY_WORD.test(t.lower) && !sectorOf(t.lower))?.text;
}

/**
 * A question about how the service works out a figure or why it shows what it shows ("How do you decide …", "How is
 * the score calculated?", "Why isn't …"): an explanation (FAQ) answers it, not a list or a statistic.
 */
function isMethodQuestion(query: string): boolean {
  return (
    /^\s*(?:why|how\s+come)\b/i.test(query) ||
    /^\s*how\s+(?:do|does|did|is|are|was|were)\b.*\b(?:decide[sd]?|determined?|defined?|measured?|calculated?|computed?|worked\s+out|counted|judged?|ranked|scored|weighted|weighed|classified|detected|chosen)\b/i.test(
      query,
    )
  );
}

/** A FAQ whose question asks how a figure is worked out ("How is a startup's geography determined?"). */
const METHOD_FAQ = /^how\s+(?:is|are|does|do)\b/i;

/**
 * Words before "startups" or "companies" of which one is outside the service's vocabulary ("Which electric vehicle
 * startups …", "drone delivery startups"): an industry it has no sector for. Words it uses ("seed", "trending",
 * "European", a sector's own words) qualify the startups instead.
 */
function unknownIndustry(toks: Token[], known: ReadonlySet<string>): string | undefined {
  for (let i = 1; i < toks.length; i++) {
    if (!HEAD_NOUN.test(toks[i]!.lower)) continue;
    // The words right before the noun, up to a stop word or another "startups" ("are these startups actual
    // companies": "startups" is not a word of an industry); a qualifier ("actual", "other") names none.
    let s = i;
    while (
      s > 0 &&
      s > i - 3 &&
      !isStopWord(toks[s - 1]!.lower) &&
      !HEAD_NOUN.test(toks[s - 1]!.lower) &&
      !DEAL_VERBS.test(toks[s - 1]!.lower)
    )
      s--;
    const run = toks.slice(s, i).filter((t) => !QUALIFIERS.has(t.lower) && !LIST_WORDS.test(t.lower));
    if (run.some((t) => !isGenericWord(t.lower) && words(t.text).some((w) => !known.has(w))))
      return run.map((t) => t.text).join(' ');
  }
  return undefined;
}

/**
 * The sectors nearest an industry the service has no sector for: those whose name or description holds one of its
 * words, or a word of 4+ letters inside it ("food" in "foodtech", "security" in "cybersecurity").
 */
/** Words every sector's name or description ends on: no industry is near a sector through them. */
const SECTOR_HEADS = new Set(
  'tech technology software tooling tools systems platforms platform infrastructure management data'.split(' '),
);

function nearestSectors(industry: string): string[] {
  const asked = words(industry).filter((w) => !/^(?:tech|technology|startups?|companies)$/.test(w));
  const listed = new Set(asked.flatMap((w) => NEAR_SECTORS[w] ?? NEAR_SECTORS[`${w}tech`] ?? []));
  if (listed.size) return sectors.filter((s) => listed.has(s.slug)).map((s) => s.name);
  return sectors
    .filter((s) =>
      words(`${s.name} ${s.description}`).some(
        (w) =>
          w.length >= 4 &&
          !SECTOR_HEADS.has(w) &&
          asked.some((a) => a === w || a.includes(w) || (a.length >= 4 && w.startsWith(a))),
      ),
    )
    .map((s) => s.name);
}

/** A question that asks what something costs ("price" and "pricing" are rewritten to "cost" before it is read). */
function asksPrice(question: string): boolean {
  return /\b(?:costs?|costing|prices?|fees?|expensive|cheap(?:er|est)?|how\s+much\s+(?:is|are|does|do|will|would)\b(?!.*\b(?:commit|contributor|activit|repositor)))/i.test(
    question,
  );
}

function isDefinitionQuestion(query: string): boolean {
  return /^\s*(?:what\s+is|what's|whats|what\s+are|define|definition\s+of|meaning\s+of|what\s+does\s+.+\s+mean)\b/i.test(
    query,
  );
}

/** The entry about `subject` that answers a deal question in the right direction (who acquired X / what X acquired). */
function dealDirection(
  toks: Token[],
  mention: Mention,
  names: readonly Mention[],
): 'acquired' | 'acquisitions' | undefined {
  const verb = cueIndex(toks, names, DEAL_VERBS);
  if (verb < 0) return undefined;
  if (mention.start === 1 && verb > mention.start) {
    // "Was X acquired?", "Has X been bought?": the passive asks who acquired X; "Is X snapping up startups?",
    // "Has X bought anyone?" ask what X acquired.
    const first = toks[0]?.lower ?? '';
    const participle = /(?:ed|bought|paid|owned)$/.test(toks[verb]!.lower);
    if (/^(was|were|is|are)$/.test(first) && participle) return 'acquired';
    if (/^(has|have|had)$/.test(first) && toks.slice(mention.end, verb).some((t) => t.lower === 'been'))
      return 'acquired';
  }
  return verb < mention.start ? 'acquired' : 'acquisitions';
}

/** The first token matching a cue-word pattern that is not inside a name the question holds, or -1. */
function cueIndex(toks: Token[], names: readonly Mention[], pattern: RegExp): number {
  return toks.findIndex((t, i) => pattern.test(t.lower) && !names.some((m) => i >= m.start && i < m.end));
}

/** The question's words outside the names it holds: what cue-word patterns read. */
function outsideNames(toks: Token[], names: readonly Mention[]): string {
  return toks
    .filter((_, i) => !names.some((m) => i >= m.start && i < m.end))
    .map((t) => t.text)
    .join(' ');
}

function about(entry: AnswerEntry, subject: Subject): boolean {
  return subject.kind === 'entity'
    ? (entry.entities ?? []).includes(subject.entity.name)
    : entry.subjects.some((login) => login.toLowerCase() === subject.startup.login.toLowerCase());
}

/** Words of a question that ask for an engineering signal: what only a tracked startup has. */
const SIGNAL_INTENT =
  /\b(?:engineering|dev\s+team|activity|active|commit\w*|contributors?|velocity|accelerat\w*|signals?|hiring|deploy\w*|repositor(?:y|ies)|momentum|trending|slowing|speeding|releases?|framework|migrat\w*|infrastructure|buildout|steam|traction)\b/i;
/** Deal verbs of a purchase of a company (paying for a lookup is none). */
const PURCHASE_VERBS =
  /^(?:acquire[sd]?|acquiring|acquirer|acquisitions?|bought|buys?|buying|buyer|purchase[sd]?|purchasing|snapped|snapping|takeovers?)$/;
/** The FAQ that states what a Deep Signal costs: the price of a tracked startup's data. */
const DEEP_SIGNAL_PRICE = 'faq-how-much-does-deep-signal-cost';

/**
 * A question that ends on the one company it names after "about" ("… what does your data say about X?", "anything
 * new about X"): it asks about that company, whatever it says before.
 */
function asksAbout(toks: Token[], mention: Mention): boolean {
  return mention.end === toks.length && mention.start > 0 && toks[mention.start - 1]!.lower === 'about';
}

/** Words of a question that ask for a deal or a backer: what the diligence corpus holds. */
const DILIGENCE_INTENT =
  /\b(?:acqui\w*|bought|buy\w*|own\w*|purchas\w*|snapp\w*|takeovers?|back(?:s|ed|ers?|ing)?|invest\w*|fund\w*|raised?|rounds?|deals?|paid|pay)\b/i;

/** Region words that are not company names ("EU startups", "Which US companies"). */
const REGION_WORDS = 'eu europe european us usa uk asia asian africa african america american latam nordic global';

const vocabularies = new WeakMap<object, Set<string>>();

/**
 * The service's own vocabulary: every word of its general answers (lists, statistics, the FAQ's questions, keywords
 * and answers), of its sectors, of the startups' geographies and of regions. A capitalised word among them ("CSV",
 * "MCP", "GitHub Actions", "Series") is what the service talks about, not an unknown company.
 */
function vocabulary(snapshot: Snapshot, corpus: ReturnType<typeof answerCorpus>): Set<string> {
  let known = vocabularies.get(corpus);
  if (!known) {
    const texts = corpus.entries
      .filter((e) => !NAMED_KINDS.has(e.kind))
      .map((e) => [e.question, e.keywords.join(' '), e.kind === 'faq' ? e.answer : ''].join(' '));
    texts.push(...sectors.map((x) => `${x.name} ${x.description}`), REGION_WORDS);
    texts.push([...new Set(snapshot.startups.map((x) => x.startup.geography))].join(' '));
    known = new Set(texts.flatMap((t) => words(t)));
    vocabularies.set(corpus, known);
  }
  return known;
}

/**
 * A name a question asks for a signal or a deal of that nothing holds ("Is Mistral AI accelerating its
 * engineering?"): the first run of capitalised words (from the question's first word only when two or more) with a word outside the
 * service's vocabulary, when the question asks for a signal or a deal. A product the service's own answers name
 * ("Do GitHub Actions commits count?") is vocabulary, not a company.
 */
function unknownSubject(toks: Token[], known: ReadonlySet<string>, cues: string): string | undefined {
  if (!SIGNAL_INTENT.test(cues) && !DILIGENCE_INTENT.test(cues)) return undefined;
  for (let i = 0; i < toks.length; i++) {
    if (!isProperToken(toks[i]!)) continue;
    let e = i;
    while (e < toks.length && isProperToken(toks[e]!) && (e === i || !toks[e - 1]!.possessive)) e++;
    const run = toks.slice(i, e);
    // The first word is capitalised as a sentence start; a run of capitalised words from it is a name ("Mistral AI
    // github activity"), one word alone is not.
    if (i === 0 && run.length < 2) continue;
    if (run.some((t) => !isGenericWord(t.lower) && words(t.text).some((w) => !known.has(w))))
      return run.map((t) => t.text).join(' ');
    i = e - 1;
  }
  return undefined;
}

const stemmedVocabularies = new WeakMap<ReadonlySet<string>, { stems: Set<string>; byLength: Map<number, string[]> }>();

/**
 * Is a lower-case word one the service never uses, nor a one-letter typo of one ("accelarating", "exluded"), nor a
 * stop word, a generic word, a number, a sector's or a region's word? Such a word in the place of a name is a name
 * ("is mistral ai accelerating?", "tailscale commit velocity"): the truth rule answers it "not tracked", never with
 * an answer about something else.
 */
function foreignWord(word: string, known: ReadonlySet<string>): boolean {
  if (
    word.length < 3 ||
    known.has(word) ||
    isStopWord(word) ||
    isGenericWord(word) ||
    /\p{N}/u.test(word) ||
    QUALIFIERS.has(word) ||
    LIST_WORDS.test(word) ||
    METRIC_WORDS.test(word)
  )
    return false;
  if (!/^\p{L}+$/u.test(word) || sectorOf(word)) return false;
  let v = stemmedVocabularies.get(known);
  if (!v) {
    v = { stems: new Set([...known].map((w) => indexTerm(w) ?? w)), byLength: new Map() };
    for (const w of known) {
      const same = v.byLength.get(w.length);
      if (same) same.push(w);
      else v.byLength.set(w.length, [w]);
    }
    stemmedVocabularies.set(known, v);
  }
  if (v.stems.has(indexTerm(word) ?? word)) return false;
  if (word.length < 4) return true;
  for (const length of [word.length - 1, word.length, word.length + 1])
    for (const w of v.byLength.get(length) ?? []) if (editDistance(word, w) <= 1) return false;
  return true;
}

/**
 * Words that qualify a figure or ask for one rather than name anything ("average commit velocity", "daily commits",
 * "define commit velocity", "huge jumps"): statistics, times, sizes and degrees, the verbs that ask for a figure, and
 * the words of a trend's direction ("speeding up or slowing down").
 */
const METRIC_WORDS =
  /^(?:speeding|slowing|picking|heating|cooling|rising|falling|climbing|dropping|declining|shrinking|stalling|growing|accelerating|decelerating|faster|slower|quicker|average|mean|median|typical|normal|usual|overall|total|aggregate|cumulative|combined|daily|weekly|monthly|yearly|annual|quarterly|hourly|recent|recently|current|latest|past|previous|prior|last|next|historical|high|higher|highest|low|lower|lowest|big|bigger|huge|large|larger|small|smaller|smallest|max|maximum|min|minimum|peak|record|sudden|strong|weak|good|bad|healthy|realistic|expected|real|raw|public|private|open|source|define|explain|show|calculate|compute|measure|compare|rank|track|find|check|see|read|interpret|beginners?|example|examples|sample)$/;

/** Questions that ask for a signal or a deal of one company, by where its name stands; the group is the name. */
const LOWER_CASE_NAME_QUESTIONS: RegExp[] = [
  /\b(?:signals?|commits?|contributors?|activity|velocity|growth|ranking|rank)\s+(?:for|of|at)\s+(.+?)\s*[?.!]*$/i,
  /^(?:was|is|has|are)\s+(.+?)\s+(?:acquired|bought|funded|tracked|accelerat\w*|growing|hiring|slowing|trending)\b/i,
  /^(?:how\s+is|how's|how\s+are)\s+(.+?)\s+doing\b/i,
  /\babout\s+(.+?)\s*[?.!]*$/i,
  // "tailscale commit velocity", "posthog's github activity": a name, then what is asked of it, and nothing else.
  /^(.+?)(?:['’]s)?\s+(?:engineering\s+)?(?:signals?|commits?|commit\s+velocity|contributors?|(?:github\s+)?activity|velocity|momentum|acceleration|backers|investors|(?:dev|developer|engineering)\s+team(?:\s+growth)?)(?:\s+(?:this\s+week|lately|now|today))?\s*[?.!]*$/i,
];

/**
 * A name written in lower case where a question puts the company it asks a signal or a deal of ("is mistral ai
 * accelerating?", "tailscale commit velocity"): every word of it outside the stop words, at least one a word the
 * service never uses (`foreignWord`). Capitalised names are read by `unknownCompany` and `unknownSubject`.
 */
function unknownLowerCaseName(
  snapshot: Snapshot,
  baseUrl: string,
  query: string,
  known: ReadonlySet<string>,
  cues: string,
): string | undefined {
  if (!SIGNAL_INTENT.test(cues) && !DILIGENCE_INTENT.test(cues)) return undefined;
  for (const pattern of LOWER_CASE_NAME_QUESTIONS) {
    const m = pattern.exec(query.trim());
    if (!m) continue;
    const name = m[1]!.replace(/^(?:the|a|an)\s+/i, '').trim();
    const ws = tokens(name);
    if (ws.length === 0 || ws.length > MAX_SPAN) continue;
    if (ws.some((t) => isStopWord(t.lower) || DATA_NOUNS.test(t.lower))) continue;
    // A name something holds is not unknown ("vercel commits" is read as the service's data, as "GitHub commits").
    if (diligenceIndex(snapshot, baseUrl).matcher.resolve(name, { typos: false }).status === 'match') continue;
    if (ws.some((t) => foreignWord(t.lower, known))) return name;
  }
  return undefined;
}

/**
 * The name a question ends on after "about", when it asks what the service holds ("What does your data say about
 * PostHog?", "anything on file about tailscale?"): capitalised with a word outside the service's vocabulary, or a
 * lower-case word it never uses; never one of its own terms, nor a name something holds.
 */
function unknownAboutName(
  snapshot: Snapshot,
  baseUrl: string,
  query: string,
  known: ReadonlySet<string>,
  terms: ServiceTerms,
): string | undefined {
  const m = /^(.*)\babout\s+(.+?)\s*[?.!]*$/i.exec(query.trim());
  if (!m || !/\b(?:data|say|says|know|have|has|tell|anything|news|info|information|signals?|show)\b/i.test(m[1]!))
    return undefined;
  const name = m[2]!.replace(/^(?:the|a|an)\s+/i, '').trim();
  const ws = tokens(name);
  if (ws.length === 0 || ws.length > MAX_SPAN || ws.some((t) => isStopWord(t.lower))) return undefined;
  if (terms.has(name) || sectorOf(name)) return undefined;
  if (diligenceIndex(snapshot, baseUrl).matcher.resolve(name, { typos: false }).status === 'match') return undefined;
  const unknownWord = (t: Token) =>
    isProperToken(t)
      ? !isGenericWord(t.lower) && words(t.text).some((w) => !known.has(w))
      : foreignWord(t.lower, known);
  return ws.some(unknownWord) ? name : undefined;
}

/**
 * The other side of a comparison that names one company ("Compare Zepatra Cloud with Stripe"): capitalised words
 * right after or right before a comparison word, outside the names the question holds; beside "and" or "or", only
 * when a word of them is outside the service's vocabulary.
 */
function unknownOperand(toks: Token[], names: readonly Mention[], known: ReadonlySet<string>): string | undefined {
  const inName = (i: number) => names.some((m) => i >= m.start && i < m.end);
  const compares = toks.some((t) => /^compar/.test(t.lower));
  for (let i = 0; i < toks.length; i++) {
    const word = toks[i]!.lower;
    const strong = /^(vs|versus|against)$/.test(word) || (compares && word === 'with');
    if (inName(i) || !(strong || COMPARE_WORDS.test(word))) continue;
    for (const [from, step] of [
      [i + 1, 1],
      [i - 1, -1],
    ] as const) {
      const run: Token[] = [];
      for (let j = from; j >= 0 && j < toks.length && !inName(j); j += step) {
        const t = toks[j]!;
        // In lower case, a word the service never uses and the generic words beside it ("grafana labs").
        const lower = foreignWord(t.lower, known) || (isGenericWord(t.lower) && !isStopWord(t.lower));
        if (!(isProperToken(t) || lower) || COMPARE_WORDS.test(t.lower)) break;
        run.push(t);
      }
      if (step < 0) run.reverse();
      const name = run.map((t) => t.text).join(' ');
      // Beside "and", "or": only a word the service does not use is a name ("… commits and MCP" is not); a run in
      // lower case only when it holds such a word.
      const named =
        (strong && run.some(isProperToken)) ||
        run.some((t) => (isProperToken(t) ? words(t.text).some((w) => !known.has(w)) : foreignWord(t.lower, known)));
      if (run.length && named && run.some((t) => !isGenericWord(t.lower)) && !sectorOf(name)) return name;
    }
  }
  return undefined;
}

export function understand(snapshot: Snapshot, baseUrl: string, query: string, limit: number): Understood {
  const corpus = answerCorpus(snapshot, baseUrl);
  const toks = tokens(query);
  const { found, related, unknown } = mentions(snapshot, baseUrl, toks, vocabulary(snapshot, corpus));
  const cues = outsideNames(toks, found);
  if (outOfScope(cues)) {
    const urls = siteUrls(baseUrl);
    return {
      kind: 'out-of-scope',
      offers: [
        { question: 'Which startups are trending this week?', url: urls.answer('trending') },
        { question: 'How are startups ranked?', url: urls.faq('how-is-ranking-computed') },
        { question: 'What is Deep Signal?', url: urls.faq('what-is-deep-signal') },
      ],
    };
  }
  const asked = rewrite(query);

  // A comparison with a name nothing holds is not answered with the other side alone.
  const operand = found.length === 1 ? unknownOperand(toks, found, vocabulary(snapshot, corpus)) : undefined;
  const comparesUnknown =
    operand !== undefined || ((related.length > 0 || unknown.length > 0) && cueIndex(toks, found, COMPARE_WORDS) >= 0);
  if (found.length > 0 && !comparesUnknown) {
    // Two companies and a deal verb: the one after the verb is the target ("When did Salesforce acquire Tableau?"),
    // unless the verb is a passive with its agent after "by" ("Was HashiCorp bought by IBM?"): then the one before.
    let subjects = found;
    const verb = cueIndex(toks, found, DEAL_VERBS);
    if (found.length > 1 && verb >= 0) {
      const passive = toks[verb + 1]?.lower === 'by';
      const side = passive ? found.filter((m) => m.end <= verb).reverse() : found.filter((m) => m.start > verb);
      if (side.length) subjects = [side[0]!];
    }
    const main = subjects[0]!;
    const mainName = subjectName(main.subject).toLowerCase();
    if (
      main.subject.kind === 'entity' &&
      subjects.length === 1 &&
      SIGNAL_INTENT.test(cues) &&
      !DILIGENCE_INTENT.test(cues)
    ) {
      // An engineering signal of a company the diligence corpus holds but the service does not track: its deals
      // and backers do not answer it.
      const name = subjectName(main.subject);
      const urls = siteUrls(baseUrl);
      return {
        kind: 'not-tracked',
        name,
        candidates: [
          {
            name,
            why: 'in the diligence corpus (acquisitions and backers), not a tracked startup',
            url: `${urls.api('/api/diligence.json')}?company=${encodeURIComponent(name)}`,
          },
        ],
        inDiligence: true,
      };
    }
    if (
      main.subject.kind === 'startup' &&
      subjects.length === 1 &&
      asksPrice(asked) &&
      cueIndex(toks, found, PURCHASE_VERBS) < 0 &&
      !STRONG_COMPARE.test(cues)
    ) {
      // "What does a Deep Signal on X cost?", "How much is it to look up X?": what a tracked startup's data costs is
      // the Deep Signal price (its signal states no price); paying for it is no deal.
      const price = corpus.byId.get(DEEP_SIGNAL_PRICE);
      if (price) {
        const scored = corpus.index.rankAll(rewrite(cues)).find((s) => s.entry === price);
        return {
          kind: 'answers',
          hits: [{ entry: price, confidence: Math.max(scored?.confidence ?? 0, corpus.index.floor), score: 0 }],
          about: subjectName(main.subject),
        };
      }
    }
    if (
      main.subject.kind === 'startup' &&
      dealDirection(toks, main, found) &&
      !corpus.entries.some((e) => (e.entities ?? []).some((n) => n.toLowerCase() === mainName))
    ) {
      // A deal question about a tracked startup the diligence corpus does not hold: its signal does not say who
      // acquired or backed it, so the answer is what diligence covers, never the signal.
      const cover = corpus.entries.find(
        (e) => e.id === (snapshot.synthetic ? 'faq-do-demo-startups-have-diligence' : 'faq-what-does-diligence-cover'),
      );
      return {
        kind: 'answers',
        hits: cover ? [{ entry: cover, confidence: corpus.index.floor, score: 0 }] : [],
        about: subjectName(main.subject),
      };
    }
    const startups = [
      ...new Map(
        subjects.flatMap((m) => (m.subject.kind === 'startup' ? [[m.subject.startup.login, m.subject.startup]] : [])),
      ).values(),
    ];
    if (startups.length >= 2) {
      // Two tracked startups named: their comparison, the listed one when the corpus has the pair in either order.
      const [x, y] = startups as [(typeof startups)[0], (typeof startups)[0]];
      const listed = [x, y].flatMap((a) => {
        const b = a === x ? y : x;
        const entry = corpus.byId.get(`compare-${slugify(a.login)}-vs-${slugify(b.login)}`);
        return entry ? [entry] : [];
      })[0];
      const entry = listed ?? comparisonAnswer(snapshot, baseUrl, x, y);
      return {
        kind: 'answers',
        hits: [{ entry, confidence: NAMED_PAIR_CONFIDENCE, score: 0 }],
        about: `${x.startup.name} and ${y.startup.name}`,
      };
    }
    const ranked = corpus.index.rankAll(asked).filter((s) => subjects.some((m) => about(s.entry, m.subject)));
    // Comparisons name two startups: prefer entries about every subject named; one name asks about that startup.
    const all = ranked.filter((s) => subjects.every((m) => about(s.entry, m.subject)));
    let hits = all.length ? all : ranked;
    // A comparison names a second startup: with one named, and whatever comparison word the question holds ("compare
    // X with the robotics average"), a comparison is about another company than asked, so the named one's own answers
    // come first.
    if (subjects.length === 1) {
      const alone = hits.filter((s) => s.entry.kind !== 'comparison');
      if (alone.length) hits = [...alone, ...hits.filter((s) => s.entry.kind === 'comparison')];
    }
    if (main.subject.kind === 'entity') {
      const direction = dealDirection(toks, main, found);
      if (direction) {
        // A deal verb and the company it bears on are the evidence: who acquired it, or what it acquired.
        const wanted = hits
          .filter((s) => s.entry.id.startsWith(`${direction}-`))
          .map((s, i) => (i === 0 ? { ...s, confidence: Math.max(s.confidence, NAMED_ASK_CONFIDENCE) } : s));
        if (wanted.length) hits = [...wanted, ...hits.filter((s) => !wanted.some((w) => w.entry === s.entry))];
      }
    } else if (
      subjects.length === 1 &&
      (SIGNAL_INTENT.test(rewrite(cues)) || asksAbout(toks, main)) &&
      !(DILIGENCE_INTENT.test(cues) && /^\s*(?:who|which)\b/i.test(query)) &&
      !asksPrice(asked) &&
      !STRONG_COMPARE.test(cues)
    ) {
      // One tracked startup and words of an engineering signal: its signal answers, whatever else the question says
      // ("shipping releases", "a follow-on", "framework migration flag"), unless it asks who made a deal ("Who
      // funded X's infrastructure buildout?") or what something costs.
      const signal = corpus.byId.get(`signal-${slugify(main.subject.startup.login)}`);
      if (signal) {
        const had = hits.find((s) => s.entry === signal);
        hits = [
          { entry: signal, confidence: Math.max(had?.confidence ?? 0, NAMED_ASK_CONFIDENCE), score: had?.score ?? 0 },
          ...hits.filter((s) => s.entry !== signal),
        ];
      }
    }
    hits = hits.map((s) => ({ ...s, confidence: Math.max(s.confidence, subjectConfidence(s, toks, main)) }));
    return {
      kind: 'answers',
      hits: hits.filter((s) => s.confidence >= corpus.index.floor).slice(0, limit),
      about: subjectName(main.subject),
    };
  }

  const named = related[0] ?? unknown[0];
  // A product or an unknown name inside a question about the service's own method ("Do GitHub Actions commits
  // count?") is not a question about a company: the method's answer stands when retrieval finds one.
  const aboutCompany =
    comparesUnknown ||
    unknownCompany(query, serviceTerms(corpus)) !== undefined ||
    cueIndex(toks, [], DEAL_VERBS) >= 0 ||
    (named !== undefined && (toks[named.end - 1]!.possessive || named.end - named.start >= toks.length - 3));
  const method = named && !aboutCompany ? methodAnswer(corpus, asked) : undefined;
  if (method)
    return {
      kind: 'answers',
      hits: [method, ...corpus.index.ask(asked, limit).filter((s) => s !== method && s.entry.kind === 'faq')].slice(
        0,
        limit,
      ),
    };
  const possessive = named ? undefined : unknownPossessive(snapshot, baseUrl, toks);
  const known = vocabulary(snapshot, corpus);
  const subject =
    named || possessive
      ? undefined
      : (operand ??
        unknownCompany(query, serviceTerms(corpus)) ??
        unknownDealObject(query, known) ??
        unknownSubject(toks, known, cues) ??
        unknownLowerCaseName(snapshot, baseUrl, query, known, cues) ??
        unknownAboutName(snapshot, baseUrl, query, known, serviceTerms(corpus)));
  if (named || possessive || subject) {
    const name = named
      ? toks
          .slice(named.start, named.end)
          .map((t) => t.text)
          .join(' ')
      : (possessive ?? subject!);
    const resolution = diligenceIndex(snapshot, baseUrl).matcher.resolve(name, { typos: false });
    const urls = siteUrls(baseUrl);
    const candidates =
      resolution.status === 'match'
        ? []
        : resolution.candidates.map((c) => ({
            name: subjectName(c.item),
            why: c.why,
            url: `${urls.api('/api/diligence.json')}?company=${encodeURIComponent(subjectName(c.item))}`,
          }));
    return { kind: 'not-tracked', name, candidates, ...(resolution.status === 'ambiguous' ? { ambiguous: true } : {}) };
  }

  const sector =
    missingSector(toks) ?? (sectorOf(asked) ? undefined : (unknownIndustry(toks, known) ?? bareIndustry(toks)));
  if (sector)
    return { kind: 'no-sector', word: sector, sectors: sectors.map((s) => s.name), nearest: nearestSectors(sector) };

  // No company named: an answer about one named startup or company never comes first (it would be about another
  // than asked); after a general answer, those of the same topic may follow in a ranked list.
  const candidates = corpus.index.ask(asked, Math.max(limit, 20));
  // A stage's list answers only a question that names the stage ("growing fastest" is not the Growth stage).
  const general = candidates.filter(
    (s) => !NAMED_KINDS.has(s.entry.kind) && (s.entry.kind !== 'stage' || stageNamed(s.entry, query)),
  );
  // A sector's list answers only a question that names that sector: "tech", "strongest" or "sector" alone make
  // every sector's list a candidate, and an industry the service lacks is not answered with a neighbour's. After a
  // general answer, the other sectors' lists may follow in a ranked list.
  let hits = general.filter((s) => sectorListNamed(s.entry, asked));
  const otherSectors = general.filter((s) => !hits.includes(s));
  const promote = (pick: ScoredAnswer | undefined) => {
    if (pick && pick !== hits[0]) hits = [pick, ...hits.filter((s) => s !== pick)];
  };
  const sectorNamed = sectorOf(asked);
  if (hits.length <= 1 && sectorNamed) {
    // A sector named with a request for its top or its fastest is answered with that list even when no question of
    // the corpus matched the words around it ("strongest real estate software companies").
    const listed = corpus.byId.get(`${sectorWants(asked) ?? ''}${sectorNamed}`);
    if (listed && hits[0]?.entry !== listed)
      hits = [
        { entry: listed, confidence: Math.max(hits[0]?.confidence ?? 0, SECTOR_LIST_CONFIDENCE), score: 0 },
        ...hits,
      ];
  }
  if (hits.length > 1) {
    const best = hits[0]!.confidence;
    const sector = sectorOf(asked);
    if (asksPrice(asked) && !asksPrice(hits[0]!.entry.question)) {
      // "What does X cost?": the answer that states a price, ahead of the one that says what X is.
      promote(hits.find((s) => s.entry.kind === 'faq' && asksPrice(s.entry.question) && s.confidence >= best - 0.25));
    } else if ((isDefinitionQuestion(asked) && best < EXACT) || isMethodQuestion(query)) {
      // "What is X", "How is X decided", "Why …": a definition or explanation (FAQ) close to the best hit comes
      // first, ahead of a statistic or a list about X; an answer whose question is the one asked stands.
      promote(hits.find((s) => s.entry.kind === 'faq' && s.confidence >= best - 0.2));
    } else if (sector) {
      // A question naming a sector is answered about that sector: its ranking when it asks for the top or what is
      // trending, its fastest accelerating when it asks for acceleration, else the closest answer about it.
      const prefix = sectorWants(asked);
      const wants = prefix ? `${prefix}${sector}` : undefined;
      const close = (s: ScoredAnswer) => s.entry.sector === sector && s.confidence >= best - 0.3;
      // The list asked for is the answer even when the index ranked it low (the sector named by an everyday word).
      const listed = wants ? corpus.byId.get(wants) : undefined;
      promote(
        hits.find((s) => close(s) && s.entry.id === wants) ??
          (listed ? { entry: listed, confidence: Math.max(best, SECTOR_LIST_CONFIDENCE), score: 0 } : undefined) ??
          hits.find(close),
      );
    } else if (/^\s*(?:who|which|where)\b/i.test(query) && hits[0]!.entry.kind === 'faq') {
      // "Who is migrating frameworks?" asks for startups, not for the definition; "Which countries are the startups
      // in?" asks for the figures, not for how a country is worked out.
      const data = (s: ScoredAnswer) =>
        LIST_KINDS.has(s.entry.kind) ||
        (METHOD_FAQ.test(hits[0]!.entry.question) && (s.entry.kind === 'research' || s.entry.kind === 'dataset'));
      promote(hits.find((s) => data(s) && s.confidence >= best - 0.35));
    }
  }
  if (hits.length > 0) hits = [...hits, ...otherSectors, ...candidates.filter((s) => NAMED_KINDS.has(s.entry.kind))];
  return { kind: 'answers', hits: hits.slice(0, limit) };
}

/**
 * A question that names its subject exactly and asks nothing else the subject's answer does not cover is answered
 * with confidence: the name is the strongest evidence a question can carry. The answer's own coverage still counts
 * when it is higher.
 */
function subjectConfidence(scored: ScoredAnswer, toks: Token[], mention: Mention): number {
  const rest = toks.filter(
    (t, i) =>
      (i < mention.start || i >= mention.end) &&
      !isStopWord(t.lower) &&
      !/^\p{N}+$/u.test(t.lower) &&
      !FIGURE_WORDS.test(t.lower),
  );
  return rest.length <= 3 ? Math.max(scored.confidence, 0.7) : scored.confidence;
}

/** Words that ask for a startup's own published figures: the startup's answer states every one of them. */
const FIGURE_WORDS =
  /^(many|commits?|contributors?|repositories|repos?|new|weeks?|days?|last|past|two|fourteen|make|made|have|had|has|count|number|figures?|numbers?)$/;

/** The FAQ answer a question about the service's method gets, when retrieval finds one above the floor. */
function methodAnswer(corpus: ReturnType<typeof answerCorpus>, asked: string): ScoredAnswer | undefined {
  return corpus.index.ask(asked, 5).find((s) => s.entry.kind === 'faq');
}

/**
 * A capitalised name written with a possessive ("What's Stripe's engineering signal?") that nothing holds: the
 * question is about it.
 */
function unknownPossessive(snapshot: Snapshot, baseUrl: string, toks: Token[]): string | undefined {
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (!t.possessive || !/^\p{Lu}/u.test(t.text) || isStopWord(t.lower) || isGenericWord(t.lower)) continue;
    let s = i;
    while (s > 1 && isProperToken(toks[s - 1]!)) s--;
    const name = toks
      .slice(s, i + 1)
      .map((x) => x.text)
      .join(' ');
    if (diligenceIndex(snapshot, baseUrl).matcher.resolve(name, { typos: false }).status !== 'match') return name;
  }
  return undefined;
}

/** One sentence saying why a question that names something unknown has no answer. */
export function understoodNotice(understood: Exclude<Understood, { kind: 'answers' }>, snapshot: Snapshot): string {
  if (understood.kind === 'out-of-scope') {
    return 'The service does not predict fundraising, listings or acquisitions, and gives no investment advice: it reports public engineering activity (commit velocity, contributor growth, new repositories) and the signal each week derives from it.';
  }
  if (understood.kind === 'no-sector') {
    const nearest = understood.nearest.length ? ` The nearest: ${understood.nearest.join(', ')}.` : '';
    return `There is no ${understood.word} sector: the service tracks ${understood.sectors.length} sectors (${understood.sectors.join(', ')}).${nearest}`;
  }
  if (understood.ambiguous) {
    return `"${understood.name}" names more than one entity equally (${understood.candidates.map((c) => c.name).join(', ')}): ask again with the full name.`;
  }
  if (understood.inDiligence) {
    return `${understood.name} is not among the ${snapshot.startups.length} ${snapshot.synthetic ? 'fictional demo startups' : 'tracked startups'}, so no engineering signal is published for it; the diligence corpus holds its acquisitions and backers (${understood.candidates[0]?.url ?? ''}).`;
  }
  const close = understood.candidates.length
    ? ` Close names, not substituted: ${understood.candidates.map((c) => `${c.name} (${c.why})`).join('; ')}.`
    : '';
  return `${understood.name} is not tracked: it is neither among the ${snapshot.startups.length} ${snapshot.synthetic ? 'fictional demo startups' : 'tracked startups'} nor a company or fund of the diligence corpus, so no answer is given about it.${close}`;
}
