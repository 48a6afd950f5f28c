/**
 * Writes data/eval/names.yaml, the labelled name-matching set, from hand-written lists (absent real companies,
 * generic words) and the names of the evaluation universe (the diligence corpus and the default demo startups).
 * Every label comes from how the query was made (a typo of X expects X), never from the matcher. Run after changing
 * the corpus or the demo names:
 *
 *   npx tsx scripts/eval-names.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { loadDiligenceCorpus } from '../src/core/diligence/corpus.js';
import { evaluationSnapshot } from '../evaluation/universe.js';
import { nameWords } from '../src/domain/matcher.js';
import type { NameCase } from '../evaluation/names.js';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'data', 'eval', 'names.yaml');

/** Real companies and products absent from the corpus and the demo data. None may be substituted. */
const ABSENT = [
  'GitLab',
  'Redis',
  'Replit',
  'Zoom',
  'WorkOS',
  'Zed',
  'Docker',
  'Sequoia Capital',
  'Cockroach Labs',
  'Stripe',
  'Twilio',
  'Shopify',
  'Figma',
  'Notion',
  'Airtable',
  'Asana',
  'Dropbox',
  'Zendesk',
  'HubSpot',
  'Datadog',
  'New Relic',
  'Dynatrace',
  'Elastic',
  'MongoDB',
  'Couchbase',
  'Fastly',
  'DigitalOcean',
  'Heroku',
  'PlanetScale',
  'Yugabyte',
  'Timescale',
  'ClickHouse',
  'Airbyte',
  'Fivetran',
  'dbt Labs',
  'Prefect',
  'Dagster',
  'Astronomer',
  'Pulumi',
  'Snyk',
  'Sonatype',
  'JFrog',
  'CircleCI',
  'Buildkite',
  'LaunchDarkly',
  'PagerDuty',
  'Grafana Labs',
  'Chronosphere',
  'Honeycomb',
  'Postman',
  'Kong',
  'Hasura',
  'Prisma',
  'Clerk',
  'Stytch',
  'Retool',
  'Vanta',
  'Linear',
  'Confluence',
  'Terraform',
  'Alphabet',
  'Google Cloud',
  'Nvidia Omniverse',
  'Microsoft Azure',
  'GitHub Copilot',
  'Slack Huddles',
  'Okteto',
  'Modular',
  'Snowplow',
  'Neo4j',
  'Deno',
  'Mistral AI',
  'Hugging Face',
  'OpenAI',
  'Cohere',
  'Anyscale',
  'Weights & Biases',
  'Scale AI',
  'Cockroach',
  'Tailscale',
  'Cloudsmith',
  'Sourcegraph',
  'Gitpod',
  'Coder',
  'Railway',
  'Render',
  'Fly.io',
  'Netflix',
  'Amazon',
  'Apple',
  'Meta',
  'Intel',
  'AMD',
  'Qualcomm',
  'SAP',
  'ServiceNow',
  'Workday',
  'Palantir',
  'Unity',
  'Roblox',
  'Epic Games',
];

/** Words and phrases that name a sector or an industry, never a company. */
const GENERIC = [
  'data',
  'cloud',
  'systems',
  'health',
  'labs',
  'ai',
  'software',
  'platform',
  'technologies',
  'analytics',
  'security',
  'robotics',
  'capital',
  'partners',
  'ventures',
  'the company',
  'inc',
  'data labs',
  'cloud systems',
  'health data',
  'infrastructure',
  'fintech',
  'saas',
  'healthcare',
  'edtech',
  'gaming',
  'proptech',
  'web3',
  'supply chain',
  'space',
  'social',
  'community',
  'storefront',
  'payroll',
  'logistics',
  'cargo',
  'ledger',
  'arcade',
  'talent',
  'legal',
  'commerce',
  'learning',
  'the labs',
  'ai labs',
  'cloud data',
  'games studios',
  'holdings',
  'global',
  'tech',
  'machines',
];

/** `count` entries spread over the list: every `stride`-th, wrapping around, each at most once. */
function pick<T>(list: readonly T[], count: number, stride: number): T[] {
  const out: T[] = [];
  const seen = new Set<number>();
  for (let i = 0; out.length < Math.min(count, list.length) && i < list.length * stride; i++) {
    const at = (i * stride + Math.floor((i * stride) / list.length)) % list.length;
    if (seen.has(at)) continue;
    seen.add(at);
    out.push(list[at]!);
  }
  return out;
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One edit of kind `n % 4` inside the longest word of `name`, never at its first letter. */
function typo(name: string, n: number, edits = 1): string | undefined {
  const words = name.split(' ');
  let longest = 0;
  words.forEach((w, i) => {
    if (w.length > words[longest]!.length) longest = i;
  });
  let word = words[longest]!;
  const min = edits === 1 ? 4 : 9;
  if (nameWords(word).join('').length < min || !/^[A-Za-z]+$/.test(word)) return undefined;
  for (let e = 0; e < edits; e++) {
    const at = 1 + ((n * 3 + e * 5) % (word.length - 2));
    const kind = (n + e) % 4;
    const c = word[at]!.toLowerCase();
    const other = LETTERS[(LETTERS.indexOf(c) + 7 + n) % 26]!;
    if (kind === 0) word = word.slice(0, at) + word.slice(at + 1);
    else if (kind === 1) word = word.slice(0, at) + other + word.slice(at + 1);
    else if (kind === 2 && word[at] !== word[at + 1])
      word = word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
    else word = word.slice(0, at) + other + word.slice(at);
  }
  words[longest] = word;
  return words.join(' ');
}

const snapshot = evaluationSnapshot(1);
const corpus = loadDiligenceCorpus();
const startups = snapshot.startups.map((s) => ({ name: s.startup.name, login: s.login }));
const firstWords = new Map<string, string[]>();
for (const s of startups) {
  const first = s.name.split(' ')[0]!;
  firstWords.set(first, [...(firstWords.get(first) ?? []), s.name]);
}
const unshared = startups.filter((s) => firstWords.get(s.name.split(' ')[0]!)!.length === 1);

const cases: NameCase[] = [];
for (const q of ABSENT) cases.push({ q, class: 'absent', expect: 'none' });
for (const q of GENERIC) cases.push({ q, class: 'generic', expect: 'none' });
for (const e of corpus.entities) cases.push({ q: e.name, class: 'exact', expect: e.name });
for (const s of pick(startups, 60, 7)) cases.push({ q: s.name, class: 'exact', expect: s.name });
for (const [i, e] of corpus.entities.slice(0, 20).entries()) {
  cases.push({ q: i % 2 ? e.name.toUpperCase() : `  ${e.name.toLowerCase()}!`, class: 'exact', expect: e.name });
}
for (const s of pick(startups, 50, 11)) cases.push({ q: s.login, class: 'slug', expect: s.name });
for (const e of corpus.entities) {
  for (const alias of [...e.aliases, ...e.formerNames]) cases.push({ q: alias, class: 'alias', expect: e.name });
}
let n = 0;
const long = (name: string) => nameWords(name).join('').length >= 8;
for (const name of [...corpus.entities.map((e) => e.name).filter(long), ...pick(unshared, 90, 13).map((s) => s.name)]) {
  const q = typo(name, n++);
  if (q && q !== name) cases.push({ q, class: 'typo-1', expect: name });
}
for (const name of [...corpus.entities.map((e) => e.name), ...pick(unshared, 60, 17).map((s) => s.name)]) {
  const q = typo(name, n++, 2);
  if (q && q !== name) cases.push({ q, class: 'typo-2', expect: name });
}
for (const [first, names] of firstWords) {
  if (names.length < 2) continue;
  cases.push({ q: first, class: 'shared', expect: 'ambiguous', among: [...names].sort() });
  cases.push({ q: first.toUpperCase(), class: 'shared', expect: 'ambiguous', among: [...names].sort() });
}

const header =
  '# Labelled name-matching set (generated by scripts/eval-names.ts; labels come from how each query was made).\n' +
  '# expect: the canonical name the query must resolve to, "none" (no match, never a substitute) or "ambiguous"\n' +
  '# (no match; `among` lists the entities it could mean). Universe: data/diligence and the default demo startups.\n';
writeFileSync(OUT, header + stringify(cases, { lineWidth: 0 }));
console.log(`${cases.length} cases written to ${path.relative(process.cwd(), OUT)}`);
