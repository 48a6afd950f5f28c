import { marked } from 'marked';
import { answerCorpus } from '../../core/answers/corpus.js';
import { loadFaq } from '../../core/answers/faq.js';
import type { AnswerEntry } from '../../core/answers/entry.js';
import type { BlogPost } from '../../core/documents/blog.js';
import type { Changelog, Glossary, Market, Methodology, Pricing } from '../../schemas/documents.js';
import { TIER_SLUGS } from '../../core/documents/pricing.js';
import { researchFinding, researchFindings } from '../../core/documents/research.js';
import { sectorInfo } from '../../domain/sectors.js';
import { sitePath, type PageContext } from '../context.js';
import { askForm } from './ask.js';
import { html, raw, type SafeHtml } from '../html.js';
import type { PageInput } from '../layout.js';
import { answerBody, sourceName } from './answer-view.js';

const link = (ctx: PageContext, url: string, text: string) => html`<a href="${sitePath(url, ctx.baseUrl)}">${text}</a>`;

function facts(ctx: PageContext, entry: Pick<AnswerEntry, 'facts'>): SafeHtml {
  return html`<ul class="facts">
    ${entry.facts.map((f) => {
      const source = sourceName(ctx, f.sourceUrl);
      return html`<li>
        ${f.claim} <span class="source">Source: <a href="${source.href}">${source.text}</a></span>
      </li>`;
    })}
  </ul>`;
}

export function answerPage(ctx: PageContext, id: string): PageInput | undefined {
  const { snapshot, baseUrl } = ctx;
  const found = answerCorpus(snapshot, baseUrl).byId.get(id);
  const entry = found?.source === 'agent-query' ? found : undefined;
  if (!entry) return undefined;
  const body = html`<p><a href="/faq">Answers</a></p>
    <h1>${entry.question}</h1>
    ${answerBody(ctx, entry, 'h2')}
    ${
      entry.related.length
        ? html`<h2>Related questions</h2>
            <ul>
              ${entry.related.map((r) => html`<li>${link(ctx, r.url, r.question)}</li>`)}
            </ul>`
        : ''
    }
    <p class="muted">
      Answered from ${snapshot.period.name}. As JSON:
      <a href="/api/answer?q=${encodeURIComponent(entry.question)}">/api/answer</a>.
    </p>
    <h2 id="ask-another">Ask another question</h2>
    ${askForm('', 'ask-another')}`;
  return {
    path: `/answers/${encodeURIComponent(id)}`,
    title: entry.question,
    description: entry.answer.slice(0, 300),
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'QAPage',
      mainEntity: {
        '@type': 'Question',
        name: entry.question,
        answerCount: 1,
        acceptedAnswer: { '@type': 'Answer', text: entry.answer, url: entry.url },
      },
    },
    ogType: 'article',
    synthetic: snapshot.synthetic,
    section: 'answers',
  };
}

export function faqPage(ctx: PageContext): PageInput {
  const { snapshot, baseUrl } = ctx;
  const faq = loadFaq(baseUrl);
  const topics = [...new Set(faq.map((f) => f.topic))];
  const agent = answerCorpus(snapshot, baseUrl).entries.filter((e) => e.source === 'agent-query');
  // Topic headings: the topic's words, capitalised, with the abbreviations written as abbreviations ("API").
  const title = (topic: string) => {
    const words = topic.split(' ').map((w) => (/^(api|faq|csv|mcp)$/.test(w) ? w.toUpperCase() : w));
    return words.join(' ').replace(/^./, (c) => c.toUpperCase());
  };
  const anchor = (topic: string) => `topic-${topic.replace(/[^a-z0-9]+/g, '-')}`;
  const body = html`<h1>Answers and FAQ</h1>
    <p class="lede">
      Questions about the service and its data, each with the facts and sources behind the answer.
      <a href="/ask">Ask your own</a> or <a href="/search">search the site</a>.
    </p>
    <nav aria-labelledby="faq-contents">
      <h2 id="faq-contents">Contents</h2>
      <ul class="toc">
        ${topics.map(
          (topic) =>
            html`<li>
              <a href="#${anchor(topic)}">${title(topic)}</a>
              <ul>
                ${faq.filter((f) => f.topic === topic).map((f) => html`<li><a href="#${f.slug}">${f.question}</a></li>`)}
              </ul>
            </li>`,
        )}
        <li><a href="#data-questions">Questions about this week's data</a></li>
      </ul>
    </nav>
    ${topics.map(
      (topic) =>
        html`<h2 id="${anchor(topic)}">${title(topic)}</h2>
          ${faq
            .filter((f) => f.topic === topic)
            .map(
              (f) =>
                html`<section id="${f.slug}" aria-labelledby="${f.slug}-q">
                  <h3 id="${f.slug}-q">${f.question}</h3>
                  <p>${f.answer}</p>
                  ${facts(ctx, f)}
                  <p><a href="#faq-contents">Back to the contents</a></p>
                </section>`,
            )}`,
    )}
    <h2 id="data-questions">Questions about this week's data</h2>
    <ul>
      ${agent.slice(0, 60).map((e) => html`<li>${link(ctx, e.url, e.question)}</li>`)}
    </ul>
    <p class="muted">${agent.length} data questions in all, in <a href="/api/answers.json">answers.json</a>.</p>`;
  return {
    path: '/faq',
    title: 'Answers and FAQ',
    description: 'Questions about the Signal Service and its data, with sourced answers.',
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: faq.map((f) => ({
        '@type': 'Question',
        name: f.question,
        acceptedAnswer: { '@type': 'Answer', text: f.answer },
      })),
    },
    synthetic: snapshot.synthetic,
    section: 'answers',
  };
}

/** Our own Markdown (content/blog), rendered with marked; raw HTML in it is not allowed through. */
function markdown(text: string): SafeHtml {
  const renderer = new marked.Renderer();
  renderer.html = ({ text: markup }) => html`${markup}`.value;
  return raw(marked.parse(text, { async: false, renderer }));
}

export function blogIndexPage(ctx: PageContext, posts: readonly BlogPost[]): PageInput {
  const sorted = [...posts].sort((a, b) => b.date.localeCompare(a.date) || a.slug.localeCompare(b.slug));
  const body = html`<h1>Blog</h1>
    <ul>
      ${sorted.map((p) => html`<li><a href="/blog/${p.slug}">${p.title}</a> <span class="muted">(${p.date})</span><br />${p.summary}</li>`)}
    </ul>`;
  return {
    path: '/blog',
    title: 'Blog',
    description: 'Notes on measuring startup engineering acceleration.',
    body,
    synthetic: false,
    section: 'blog',
  };
}

export function blogPostPage(ctx: PageContext, post: BlogPost): PageInput {
  const body = html`<p><a href="/blog">Blog</a></p>
    <article class="prose">
      <h1>${post.title}</h1>
      <p class="muted"><time datetime="${post.date}">${post.date}</time></p>
      ${markdown(post.body)}
    </article>`;
  return {
    path: `/blog/${post.slug}`,
    title: post.title,
    description: post.summary,
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'BlogPosting',
      headline: post.title,
      datePublished: post.date,
      description: post.summary,
      url: `${ctx.baseUrl}/blog/${post.slug}`,
      keywords: post.tags.join(', '),
    },
    ogType: 'article',
    synthetic: false,
    section: 'blog',
  };
}

export function researchIndexPage(ctx: PageContext): PageInput {
  const { snapshot, baseUrl } = ctx;
  const findings = researchFindings(snapshot, baseUrl);
  const body = html`<h1>Research findings</h1>
    <p class="lede">
      Aggregate statements about ${snapshot.period.name}, computed from the data each week. Each can be cited (<a
        href="/api/cite/bibtex/dataset"
        >BibTeX of the dataset</a
      >).
    </p>
    <ul>
      ${findings.map((f) => html`<li><a href="/research/${f.slug}">${f.title}</a>: ${f.claim}</li>`)}
    </ul>`;
  return {
    path: '/research',
    title: 'Research findings',
    description: `Aggregate findings about startup engineering acceleration, ${snapshot.period.name}.`,
    body,
    synthetic: snapshot.synthetic,
    section: 'research',
  };
}

export function researchPage(ctx: PageContext, slug: string): PageInput | undefined {
  const { snapshot, baseUrl } = ctx;
  const f = researchFinding(snapshot, baseUrl, slug);
  if (!f) return undefined;
  const body = html`<p><a href="/research">Research</a></p>
    <h1>${f.title}</h1>
    <p class="lede">${f.claim}</p>
    <div class="table-scroll">
      <table>
        <caption>
          The numbers, ${f.period}
        </caption>
        <thead>
          <tr>
            <th scope="col">Value</th>
            <th scope="col">Figure</th>
          </tr>
        </thead>
        <tbody>
          ${Object.entries(f.values).map(
            ([k, v]) =>
              html`<tr>
                <th scope="row">${k}</th>
                <td>${v}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p>
      Recompute it from <a href="${sitePath(f.sourceUrl, baseUrl)}">the source data</a>. Cite it:
      ${['bibtex', 'ris', 'apa', 'mla', 'chicago', 'wikipedia'].map((fmt, i) => html`${i ? ', ' : ''}<a href="/api/cite/${fmt}/${f.slug}">${fmt}</a>`)}.
    </p>`;
  return {
    path: `/research/${slug}`,
    title: f.title,
    description: f.claim,
    body,
    jsonLd: {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: f.title,
      description: f.claim,
      url: f.url,
      isBasedOn: f.sourceUrl,
    },
    ogType: 'article',
    synthetic: snapshot.synthetic,
    section: 'research',
  };
}

export function glossaryPage(glossary: Glossary): PageInput {
  const body = html`<h1>Glossary</h1>
    <p class="lede">
      The ${glossary.hasDefinedTerm.length} terms the API uses. Each term has an anchor you can link to.
    </p>
    <dl class="terms">
      ${glossary.hasDefinedTerm.map(
        (t) =>
          html`<dt id="${t.termCode}"><a href="#${t.termCode}">${t.name}</a></dt>
            <dd>${t.description}</dd>`,
      )}
    </dl>`;
  return {
    path: '/glossary',
    title: 'Glossary',
    description: 'The terms of the Signal Service API, defined.',
    body,
    jsonLd: glossary as unknown as Record<string, unknown>,
    synthetic: false,
  };
}

export function methodologyPage(m: Methodology): PageInput {
  const body = html`<h1>${m.name}</h1>
    <p class="lede">${m.description}</p>
    <ol>
      ${m.step.map((s) => html`<li><a href="#${s.name}">${s.headline}</a></li>`)}
    </ol>
    ${m.step.map(
      (s) =>
        html`<section id="${s.name}" aria-labelledby="${s.name}-h">
          <h2 id="${s.name}-h">${s.position}. ${s.headline}</h2>
          <p>${s.text}</p>
          ${s.formulas.length ? html`<pre><code>${s.formulas.join('\n')}</code></pre>` : ''}
          <p class="muted">Code: ${s.code.map((c, i) => html`${i ? ', ' : ''}<code>${c}</code>`)}</p>
        </section>`,
    )}
    <p>
      Whether the ranking comes before funding rounds and acquisitions is tested apart:
      <a href="/backtest">the backtest</a>.
    </p>`;
  return {
    path: '/methodology',
    title: 'Methodology',
    description: m.description.slice(0, 300),
    body,
    jsonLd: m as unknown as Record<string, unknown>,
    synthetic: false,
  };
}

export function changelogPage(c: Changelog): PageInput {
  const body = html`<h1>Changelog</h1>
    <p class="lede">
      Interface version ${c.interfaceVersion} (revision ${c.revisionDate}). Machine-readable:
      <a href="/api/changelog.json">changelog.json</a>.
    </p>
    <h2>Interface releases</h2>
    ${c.releases.map(
      (r) =>
        html`<h3>${r.version}: ${r.title} <span class="muted">(${r.date})</span></h3>
          <ul>
            ${r.changes.map((x) => html`<li>${x}</li>`)}
          </ul>`,
    )}
    <h2>Data periods</h2>
    <p>${c.periods.length} published; see <a href="/periods">the archive</a>.</p>`;
  return {
    path: '/changelog',
    title: 'Changelog',
    description: 'Interface releases and published data periods of the Signal Service.',
    body,
    synthetic: false,
  };
}

/** How a tier is paid for, in words (the JSON's `authentication` is a header form, not a sentence). */
function howToPay(t: Pricing['tiers'][number]): string {
  if (t.authentication === 'none') return 'No key and no sign-up.';
  if (t.authentication.startsWith('X-PAYMENT'))
    return 'No key: each call carries a signed payment in its X-PAYMENT header (x402 version 1) or PAYMENT-SIGNATURE header (version 2).';
  return 'Send the key you get as a Bearer token: the header Authorization: Bearer <key>.';
}

/** "19.00 EUR per pack (100 credits, 0.19 EUR a call)"; the free tier is just "Free". */
function priceText(t: Pricing['tiers'][number]): string {
  if (Number(t.price.amount) === 0) return 'Free';
  const perCall =
    t.unit === 'call' || !t.pricePerCall ? '' : `, ${t.pricePerCall.amount} ${t.pricePerCall.currency} a matched call`;
  return `${t.price.amount} ${t.price.currency} per ${t.unit}${t.credits ? ` (${t.credits} credits${perCall})` : ''}`;
}

/** Where each tier is bought (or, free, started): every tier card links to it. */
function howToBuy(slug: string, checkoutAvailable: boolean | undefined): { href: string; text: string } {
  switch (slug) {
    case TIER_SLUGS.creditPack:
      return checkoutAvailable === false
        ? { href: '/agents/credits', text: 'Card checkout is off here: other ways to pay' }
        : { href: '/agents/credits', text: 'Buy the pack by card' };
    case TIER_SLUGS.x402:
      return { href: '/agents/credits#x402', text: 'How to pay per call with x402' };
    case TIER_SLUGS.solanaPack:
      return { href: '/agents/credits#solana', text: 'How to buy the pack in Solana USDC' };
    default:
      return { href: '/docs', text: 'Start with the API reference' };
  }
}

export function pricingPage(p: Pricing, options: { checkoutAvailable?: boolean } = {}): PageInput {
  const body = html`<h1>Pricing</h1>
    <p class="lede">
      Every free read needs no key. Deep Signal, the enriched profile of one startup, is paid per matched call; a miss
      is free. Prices as of ${p.asOf.slice(0, 10)}; machine-readable at <a href="/api/v1/pricing.json">pricing.json</a>.
    </p>
    <p>
      Why two currencies: the card pack is charged in euros (EUR) by the card processor; the two on-chain options settle
      in USDC, a stablecoin worth one US dollar, so they are priced in USD.
    </p>
    <ul class="cards">
      ${p.tiers.map(
        (t) =>
          html`<li>
            <h2>${t.name}</h2>
            <p><strong>${priceText(t)}</strong></p>
            <p>${t.description}</p>
            <p class="muted">${howToPay(t)}</p>
            <p>
              <a class="buy" href="${howToBuy(t.slug, options.checkoutAvailable).href}"
                >${howToBuy(t.slug, options.checkoutAvailable).text}</a
              >
            </p>
          </li>`,
      )}
    </ul>
    ${
      options.checkoutAvailable === false
        ? html`<p class="notice" role="note">
            Card checkout is not configured on this server, so the card pack cannot be bought here. x402 pay per call
            and the Solana pack work without it, and every free endpoint works as usual.
          </p>`
        : html`<p><a class="button" href="/agents/credits">Buy Deep Signal credits by card</a></p>`
    }`;
  return {
    path: '/pricing',
    title: 'Pricing',
    description: 'Free API; Deep Signal per call by credit pack, x402 or Solana.',
    body,
    synthetic: false,
    section: 'pricing',
  };
}

/** The Markets page: `markets` as the markets service computed them for the page's period. */
export function marketsPage(ctx: PageContext, markets: readonly Market[]): PageInput {
  const { snapshot } = ctx;
  const body = html`<h1>Prediction markets</h1>
    <p class="lede">
      Open questions about coming weeks, with candidates and implied probabilities computed from
      ${snapshot.period.name}.
    </p>
    ${markets.map(
      (m) =>
        html`<section id="${m.slug}" aria-labelledby="${m.slug}-h">
          <h2 id="${m.slug}-h">${m.question}</h2>
          <p>
            Status: <strong>${m.status}</strong>; resolves with ${m.resolutionPeriod} (${m.resolvesOn}); resolver:
            ${m.resolver}.
            ${m.resolution ? html`Winner: ${m.resolution.winner ? m.resolution.winner.name : 'no ranked startup'}.` : ''}
          </p>
          <div class="table-scroll">
            <table>
              <caption>
                Candidates: ${m.candidateRule}
              </caption>
              <thead>
                <tr>
                  <th scope="col" class="num">#</th>
                  <th scope="col">Startup and sector</th>
                  <th scope="col" class="num">Composite</th>
                  <th scope="col" class="num">Implied probability</th>
                </tr>
              </thead>
              <tbody>
                ${m.candidates.map(
                  (c) =>
                    html`<tr>
                      <td class="num">${c.position}</td>
                      <td>
                        ${link(ctx, c.url, c.name)}<br /><span class="muted small">${sectorInfo(c.sector).name}</span>
                      </td>
                      <td class="num">${c.compositeScore}</td>
                      <td class="num">${(c.impliedProbability * 100).toFixed(1)}%</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>
          <p class="muted">JSON: <a href="/api/markets/${m.slug}">/api/markets/${m.slug}</a></p>
        </section>`,
    )}`;
  return {
    path: '/markets',
    title: 'Prediction markets',
    description: `Prediction markets on startup engineering acceleration, computed from ${snapshot.period.name}.`,
    body,
    synthetic: snapshot.synthetic,
  };
}
