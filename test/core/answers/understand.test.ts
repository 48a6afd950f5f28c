import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { understand } from '../../../src/core/answers/understand.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();
const [first, second] = snapshot.startups;
const top = (q: string) => {
  const u = understand(snapshot, BASE, q, 3);
  return u.kind === 'answers' ? (u.hits[0]?.entry.id ?? 'none') : u.kind;
};

describe('understanding a question', () => {
  test("a tracked startup's name before a metric asks for that startup's figures", () => {
    assert.equal(top(`What is ${first!.startup.name}'s commit velocity?`), `signal-${first!.login}`);
    assert.equal(top(`${second!.startup.name} commit velocity`), `signal-${second!.login}`);
  });

  test('a possessive ends a name: the capitalised words after it are not part of it', () => {
    assert.equal(top("Who led Supabase's Series A?"), 'backers-supabase');
  });

  test('a deal question about a startup the diligence corpus does not hold is answered with what diligence covers', () => {
    assert.equal(top(`Who acquired ${first!.startup.name}?`), 'faq-do-demo-startups-have-diligence');
  });

  test('a request for a prediction is out of scope', () => {
    assert.equal(top('Predict which company will be the next unicorn'), 'out-of-scope');
    assert.equal(top('Which startup should I put money into?'), 'out-of-scope');
  });

  test('"speeding up" asks for acceleration and "space companies" for the Space Tech sector', () => {
    assert.equal(top('Which space companies are speeding up the most?'), 'fastest-accelerating-space-tech');
  });

  test('"based on" is not a question about geography, "where … based" is', () => {
    assert.equal(top('What is the ranking based on?'), 'faq-how-is-ranking-computed');
    assert.equal(top('how do you figure out where a startup is based'), 'faq-how-are-geographies-derived');
  });

  test('a name asked about in "which rounds did X lead" that nothing holds is not tracked', () => {
    assert.equal(top('Which rounds did Index Exchange lead?'), 'not-tracked');
  });

  test('an engineering signal asked of a company only the diligence corpus holds is not tracked, with its dossier', () => {
    const u = understand(snapshot, BASE, 'Is Supabase committing more this week?', 3);
    assert.equal(u.kind, 'not-tracked');
    assert.ok(u.kind === 'not-tracked' && u.inDiligence && u.candidates[0]!.url.includes('company=Supabase'));
  });

  test('a deal question about a company the diligence corpus holds is still answered from it', () => {
    assert.equal(top('Is Supabase backed by Accel?'), 'backers-supabase');
  });

  test('a comparison whose other side nothing holds is not tracked, never the named side alone', () => {
    assert.equal(top(`Compare ${first!.startup.name} with Notion`), 'not-tracked');
  });

  test('a capitalised name outside the service vocabulary asked for a signal is not tracked', () => {
    assert.equal(top('Is Perplexity AI hiring engineers?'), 'not-tracked');
  });

  test('a tool the service answers name is not a company: the method answer stands', () => {
    assert.equal(top('Are Renovate commits counted?'), 'faq-how-are-bots-excluded');
  });

  test('the object of a deal question in lower case is a name', () => {
    assert.equal(top('who acquired neo4j'), 'not-tracked');
  });

  test('a word of a sector description names that sector', () => {
    assert.equal(top('Top observability startups'), 'top-data-infrastructure');
  });

  test('words before "startups" the service does not use are an industry it has no sector for', () => {
    assert.equal(top('Which drone delivery startups are accelerating?'), 'no-sector');
  });

  test('a question about how a figure is worked out gets the explanation, not the statistic', () => {
    assert.equal(top('How is contributor growth calculated?'), 'faq-what-is-contributor-growth');
  });

  test('"which" asking for figures gets them, not how they are worked out', () => {
    assert.equal(top('Where are the tracked startups located?'), 'research-geography-mix');
  });

  test('a negation written as a contraction is read as a negation', () => {
    assert.equal(top("Why doesn't a quiet startup trend?"), 'faq-what-is-the-activity-floor');
  });

  test('an industry without a sector names the sectors whose description holds its words', () => {
    const u = understand(snapshot, BASE, 'top foodtech startups', 3);
    assert.ok(u.kind === 'no-sector' && u.nearest.join() === 'AgTech', JSON.stringify(u));
  });

  test('everyday words for the service\'s own find its FAQ answer ("billed" is charged, "register" is signing up)', () => {
    assert.equal(top('Will I be billed when a name is not found?'), 'faq-are-misses-charged');
    assert.equal(top('How frequently is the data updated?'), 'faq-how-often-is-data-refreshed');
    assert.equal(top('Do we have to register to use the API?'), 'faq-do-i-need-an-api-key');
  });

  test('a price question is answered with the price, not with what the priced thing is', () => {
    assert.equal(top('What does Deep Signal cost?'), 'faq-how-much-does-deep-signal-cost');
  });

  test('whether the signal predicts funding is a question about the method; asking who is about to raise is not', () => {
    assert.equal(top('Does the signal predict funding rounds?'), 'faq-does-the-signal-predict-funding');
    assert.equal(top('Which startups are about to raise money?'), 'out-of-scope');
  });

  test('a determiner or an everyday adjective before "startups" or "companies" is not an industry', () => {
    assert.equal(top('Are these companies real startups?'), 'faq-is-the-data-real');
    assert.equal(top('Which other startups are accelerating?'), 'fastest-accelerating');
  });

  test('a "… tech" industry that names no sector has no sector; one that names a sector is that sector', () => {
    assert.equal(top('top insurance tech companies'), 'no-sector');
    assert.equal(top('Which govtech startups lead?'), 'no-sector');
    assert.equal(top('best ed tech startups'), 'top-edtech');
  });

  test("a sector's list never answers a question that does not name that sector", () => {
    for (const q of ['Which sector is strongest?', 'best tech startups'])
      assert.ok(!/^(?:top|fastest-accelerating)-/.test(top(q)), `${q}: ${top(q)}`);
  });

  test('a sector is named by the people its software serves, and the longest phrase names it', () => {
    assert.equal(top('Strongest startups for law firms'), 'top-legal-tech');
    assert.equal(top('Top startups building tools for teachers'), 'top-edtech');
    assert.equal(top('fastest accelerating smart contracts startups'), 'fastest-accelerating-web3');
  });

  test('one tracked startup asked about in words of an engineering signal gets its signal, at confidence 0.7 or more', () => {
    for (const q of [
      `Weighing a bridge round for ${first!.startup.name}: is there any sign of an infrastructure buildout there?`,
      `has ${second!.startup.name} been shipping code more often over these last few weeks`,
    ]) {
      const u = understand(snapshot, BASE, q, 3);
      const hit = u.kind === 'answers' ? u.hits[0] : undefined;
      const login = q.includes(first!.startup.name) ? first!.login : second!.login;
      assert.equal(hit?.entry.id, `signal-${login}`, q);
      assert.ok((hit?.confidence ?? 0) >= 0.7, `${q}: ${hit?.confidence}`);
    }
  });

  test('a deal verb answers the deal of the company it bears on, in its direction, at confidence 0.7 or more', () => {
    for (const [q, id] of [
      ['So did Atlassian in the end go ahead and buy Loom, and for roughly what amount?', 'acquired-loom'],
      ['which companies has Databricks been snapping up over the past few years', 'acquisitions-databricks'],
    ] as const) {
      const u = understand(snapshot, BASE, q, 3);
      const hit = u.kind === 'answers' ? u.hits[0] : undefined;
      assert.equal(hit?.entry.id, id, q);
      assert.ok((hit?.confidence ?? 0) >= 0.7, `${q}: ${hit?.confidence}`);
    }
  });

  test('a number alone is not a name: a question holding "+250%" is not about an untracked company', () => {
    assert.equal(top("why doesn't a startup at +250% show up in trending?"), 'faq-what-is-the-activity-floor');
  });

  test('"doesn\'t … show up", "isn\'t listed", "is not in" ask why a startup is missing', () => {
    assert.equal(top("Why doesn't my startup appear in the trending list?"), 'faq-what-is-the-activity-floor');
    assert.equal(top("Why isn't my favourite startup listed?"), 'faq-what-is-the-activity-floor');
    assert.equal(
      top('How come a company with a jump in commits is not in trending?'),
      'faq-what-is-the-activity-floor',
    );
  });

  test('two capitalised words opening a question that asks for a signal are a name, and an untracked one is said so', () => {
    assert.equal(top('Zorblat Labs engineering activity lately'), 'not-tracked');
  });

  test('quoting the data is citing it', () => {
    assert.equal(top('How should I quote the data in a report?'), 'faq-how-do-i-cite-the-data');
  });

  test('the composite score is what startups are ranked by, and how it is weighted is how they are ranked', () => {
    assert.equal(top('how do you compute the composite score'), 'faq-how-is-ranking-computed');
    assert.equal(top('How is the composite score weighted?'), 'faq-how-is-ranking-computed');
    assert.equal(top('What is the Scout Score?'), 'none');
  });

  test('a deal question opening with "is" or "has" asks who acquired the company only in the passive', () => {
    assert.equal(top('Was Loom acquired?'), 'acquired-loom');
    assert.equal(top('Has Loom been acquired?'), 'acquired-loom');
    assert.equal(top('Is Anthropic snapping up startups?'), 'acquisitions-anthropic');
    assert.equal(top('Has Databricks acquired anything?'), 'acquisitions-databricks');
  });

  test('a price question that names a tracked startup is answered with the Deep Signal price, not its signal', () => {
    assert.equal(
      top(`How much does a Deep Signal for ${first!.startup.name} cost?`),
      'faq-how-much-does-deep-signal-cost',
    );
    assert.equal(top(`What's the price of ${second!.startup.name}'s data?`), 'faq-how-much-does-deep-signal-cost');
  });

  test('an untracked name in lower case, asked for a signal or compared with a tracked startup, is not tracked', () => {
    for (const [q, name] of [
      ['is mistral ai accelerating?', 'mistral ai'],
      ['tailscale commit velocity', 'tailscale'],
      [`compare grafana labs with ${first!.startup.name.toLowerCase()}`, 'grafana labs'],
    ]) {
      const u = understand(snapshot, BASE, q!, 3);
      assert.ok(u.kind === 'not-tracked' && u.name === name, `${q}: ${JSON.stringify(u)}`);
    }
  });

  test('a comparison word beside one tracked startup answers about it, never with its comparison to another', () => {
    assert.equal(top(`compare ${first!.startup.name} with the sector average`), `signal-${first!.login}`);
  });

  test("a lower-case word that qualifies or asks for a figure, or a typo of the service's words, is not a name", () => {
    for (const q of ['average commit velocity', 'daily commits', 'define commit velocity', 'is anyone accelarating?'])
      assert.notEqual(top(q), 'not-tracked', q);
  });

  test('a near name of a tracked startup in lower case is not tracked, with that startup as the candidate', () => {
    const s = snapshot.startups.find((x) => /^\p{L}{6,} \p{L}+$/u.test(x.startup.name))!;
    const [word, rest] = s.startup.name.toLowerCase().split(' ') as [string, string];
    const typo = `${word.slice(0, 3)}${word[3]}${word.slice(3)} ${rest}`;
    const u = understand(snapshot, BASE, `is ${typo} accelarating`, 3);
    assert.ok(
      u.kind === 'not-tracked' && u.candidates.some((c) => c.name === s.startup.name),
      `${typo}: ${JSON.stringify(u)}`,
    );
  });

  test('a question ending "about" a tracked startup asks for its signal, however long', () => {
    assert.equal(
      top(`I'm writing a piece on payroll software - what does your data say about ${first!.startup.name}?`),
      `signal-${first!.login}`,
    );
  });

  test('a question ending "about" a name nothing holds is not tracked, in either case', () => {
    for (const q of ['What does your data say about PostHog?', 'what does your data say about posthog?'])
      assert.equal(top(q), 'not-tracked', q);
  });

  test("the service's own terms asked about are not companies, unless asked for a signal or a deal", () => {
    assert.equal(top('Tell me about Deep Signal'), 'faq-what-is-deep-signal');
    assert.notEqual(top('Tell me about MCP'), 'not-tracked');
    assert.equal(top('Who acquired OpenAI?'), 'not-tracked');
  });

  test('credits "left" or "remaining" ask for the credit balance', () => {
    assert.equal(top('How many credits do I have left?'), 'faq-how-do-i-check-my-balance');
    assert.equal(top('where can I see my remaining credits'), 'faq-how-do-i-check-my-balance');
    assert.equal(top('Do unused credits expire?'), 'faq-do-credits-expire');
  });

  test('an industry that is not a sector, with or without "startups", has no sector and is offered the nearest', () => {
    for (const [q, near] of [
      ['top fintech', 'E-commerce Infrastructure'],
      ['fastest growing biotech', 'Healthcare'],
      ['Which quantum computing startups are accelerating?', 'Data Infrastructure'],
      ['best cybersecurity startups', 'Enterprise SaaS'],
    ] as const) {
      const u = understand(snapshot, BASE, q, 3);
      assert.ok(u.kind === 'no-sector' && u.nearest.includes(near), `${q}: ${JSON.stringify(u)}`);
    }
  });

  test('a deal verb in the passive with its agent after "by" asks who acquired the company before the verb', () => {
    assert.equal(top('was hashicorp bought by ibm'), 'acquired-hashicorp');
    assert.equal(top('Was Slack acquired by Salesforce?'), 'acquired-slack');
  });

  test("the words of a trend's direction are never read as a company's name", () => {
    assert.equal(top(`${first!.startup.name} speeding up or slowing down?`), `signal-${first!.login}`);
  });

  test("picking up speed or heating up in a sector asks for that sector's fastest accelerating", () => {
    assert.equal(top('who is picking up speed the most in legal tech'), 'fastest-accelerating-legal-tech');
  });

  test("a sector's leaderboard is its top list, and web 3 is Web3", () => {
    assert.equal(top('crypto / web 3 startups leaderboard this week'), 'top-web3');
  });

  test('"which industry" asks for a sector', () => {
    assert.equal(top('which industry is heating up the most right now'), 'research-median-commit-change-by-sector');
  });

  test('older weeks are the past periods the history answer speaks of', () => {
    assert.equal(top('can i download older weeks or just the current one'), 'faq-is-history-available');
  });

  test('a lower-case name the service never uses, asked whether it is trending or of its dev team, is not tracked', () => {
    assert.equal(top('is clickhouse trending'), 'not-tracked');
    assert.equal(top('duolingo dev team growth'), 'not-tracked');
    assert.equal(top(`is ${first!.startup.name.toLowerCase()} trending`), `signal-${first!.login}`);
  });

  test('a region asked about is not read as a word it begins with ("Europe" is no "euro" price)', () => {
    assert.notEqual(top('What do you know about Europe?'), 'faq-how-much-does-deep-signal-cost');
  });

  test('a company named by an everyday word, in lower case, is that company where a deal is asked of it', () => {
    assert.equal(top('who acquired slack'), 'acquired-slack');
    assert.equal(top('slack acquirer'), 'acquired-slack');
    assert.equal(top('investors in temporal'), 'backers-temporal');
    assert.equal(top('list the backers of temporal'), 'backers-temporal');
  });

  test('an everyday word that names a company is still a word outside a deal question', () => {
    assert.ok(!top('how does the index work').endsWith('-index'));
    assert.ok(!top('is there a slack channel').endsWith('-slack'));
  });

  test('a superlative or "typical" before "startups" qualifies them and names no industry', () => {
    assert.notEqual(top('where are the busiest startups'), 'no-sector');
    assert.notEqual(top('what does a typical startup commit per week'), 'no-sector');
  });

  test('a vertical or an industry is a sector, and its typical startup is its median one', () => {
    assert.equal(
      top('in which industry does the typical startup have the highest commit velocity'),
      'research-median-commit-velocity-by-sector',
    );
    assert.equal(
      top('which vertical has the highest typical commit velocity'),
      'research-median-commit-velocity-by-sector',
    );
  });

  test('FAQ keywords answer a question in words far from the FAQ question', () => {
    assert.equal(top('does my web app get blocked calling the api from javascript'), 'faq-is-cors-enabled');
    assert.equal(top('is there a swagger spec to generate an sdk'), 'faq-is-there-an-openapi-spec');
    assert.equal(top('will my purchased credits lapse after a year'), 'faq-do-credits-expire');
    assert.equal(top('does a failed lookup that finds nothing cost me a credit'), 'faq-are-misses-charged');
    assert.equal(
      top('why doesnt a startup with a big percentage spike appear in trending'),
      'faq-what-is-the-activity-floor',
    );
  });
});
