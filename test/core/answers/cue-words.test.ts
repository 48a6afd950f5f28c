import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { understand } from '../../../src/core/answers/understand.js';
import { lastCompletePeriod } from '../../../src/domain/periods.js';
import { generateDemoDataset } from '../../../src/pipeline/demo/generate.js';
import { datasetSnapshot } from '../../../src/snapshot/generated.js';
import { BASE } from '../fixtures.js';

/**
 * Tracked startups whose names hold the words the question rules read as cues (a deal verb, a comparison word, a
 * request for advice or for a company's people): the demo dataset with a few startups renamed in every period.
 */
const RENAMED = [
  'Quolvex Payroll',
  'Quolvex Owner',
  'Zorvex Versus',
  'Zorvex Forecast',
  'Zorvex Founders',
  'Quolvex Buyer',
  'Fundora Labs',
  'Zorvex Against',
  'Zorvex Valuation',
  'Backora Cloud',
];

function renamedSnapshot() {
  const dataset = generateDemoDataset({
    seed: 'cue-words',
    startups: 120,
    periods: 2,
    endPeriod: lastCompletePeriod(new Date('2026-11-20T00:00:00Z')),
  });
  const logins = dataset.periods[0]!.ranked.startups.slice(0, RENAMED.length).map((s) => s.login);
  for (const { ranked } of dataset.periods) {
    const lists = [ranked.startups, ranked.trending, ...Object.values(ranked.bySector)];
    for (const list of lists)
      for (const record of list as { login: string; startup: { name: string } }[]) {
        const at = logins.indexOf(record.login);
        if (at >= 0) record.startup.name = RENAMED[at]!;
      }
  }
  const snapshot = datasetSnapshot(dataset, { baseUrl: BASE, hashPrefix: 'cue', dataset: 'synthetic-demo' }).snapshot;
  const loginOf = (name: string) => logins[RENAMED.indexOf(name)]!;
  return { snapshot, loginOf };
}

const { snapshot, loginOf } = renamedSnapshot();
const top = (q: string) => {
  const u = understand(snapshot, BASE, q, 3);
  return u.kind === 'answers' ? (u.hits[0]?.entry.id ?? 'none') : u.kind;
};
const signalOf = (name: string) => `signal-${loginOf(name)}`;

describe('cue words are whole words outside the names a question holds', () => {
  test('the names are served as renamed', () => {
    for (const name of RENAMED) assert.equal(snapshot.byLogin.get(loginOf(name))?.startup.name, name);
  });

  test('deal verbs: a name ending in "Payroll" or "Owner" asks for the signal, not for deals', () => {
    assert.equal(top('Quolvex Payroll commits last two weeks'), signalOf('Quolvex Payroll'));
    assert.equal(top('How is Quolvex Payroll doing?'), signalOf('Quolvex Payroll'));
    assert.equal(top('What is the engineering signal for Quolvex Owner?'), signalOf('Quolvex Owner'));
    // The verb outside the name still asks about deals.
    assert.equal(top('Who acquired Quolvex Payroll?'), 'faq-do-demo-startups-have-diligence');
  });

  test('deal verbs: a name ending in "Buyer" asks for the signal, not for a purchase', () => {
    assert.equal(top('Quolvex Buyer commits last two weeks'), signalOf('Quolvex Buyer'));
    assert.equal(top('What is the engineering signal for Quolvex Buyer?'), signalOf('Quolvex Buyer'));
    assert.equal(top('Who acquired Quolvex Buyer?'), 'faq-do-demo-startups-have-diligence');
  });

  test('deal words read by their stem: a name beginning "Fund" or "Back" asks for the signal, not for deals', () => {
    assert.equal(top('How is Fundora Labs doing?'), signalOf('Fundora Labs'));
    assert.equal(top('fundora labs github activity'), signalOf('Fundora Labs'));
    assert.equal(top('backora cloud commits'), signalOf('Backora Cloud'));
    assert.equal(top('Who acquired Backora Cloud?'), 'faq-do-demo-startups-have-diligence');
  });

  test('comparison words: a name holding "Versus" is one startup, not a comparison', () => {
    assert.equal(top('How is Zorvex Versus doing?'), signalOf('Zorvex Versus'));
  });

  test('comparison words: a name ending in "Against" is one startup, not a comparison', () => {
    assert.equal(top('How is Zorvex Against doing?'), signalOf('Zorvex Against'));
    assert.equal(top('Zorvex Against engineering momentum'), signalOf('Zorvex Against'));
  });

  test('out-of-scope requests: a name holding "Forecast" or "Founders" is not a request for a prediction or for people', () => {
    assert.equal(top('How is Zorvex Forecast doing?'), signalOf('Zorvex Forecast'));
    assert.equal(top('What is the engineering signal for Zorvex Founders?'), signalOf('Zorvex Founders'));
    assert.equal(top('Who are the founders of Zorvex Forecast?'), 'out-of-scope');
  });

  test('facts the service does not hold: a name ending in "Valuation" is not a question about a valuation', () => {
    assert.equal(top('What is the engineering signal for Zorvex Valuation?'), signalOf('Zorvex Valuation'));
    assert.equal(top('What is the valuation of Zorvex Valuation?'), 'out-of-scope');
  });
});
