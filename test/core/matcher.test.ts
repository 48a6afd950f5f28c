import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compactName, NameMatcher } from '../../src/core/matcher.js';

const companies = [
  { name: 'Acme Robotics', login: 'acme-robotics' },
  { name: 'Acme Health', login: 'acmehealth' },
  { name: 'Orbital Dynamics Labs', login: 'orbdyn' },
  { name: 'Data Labs', login: 'datalabs-io' },
  { name: 'Zenith Data', login: 'zenith' },
  { name: 'Söderberg AI', login: 'soderberg' },
];
const matcher = new NameMatcher(companies, (c) => [c.name, c.login]);
const best = (q: string) => matcher.best(q)?.item.name;

describe('fuzzy name matcher', () => {
  test('compact form ignores case, spacing, punctuation and accents', () => {
    assert.equal(compactName('  Söderberg-A.I. '), 'soderbergai');
  });

  test('an exact name in any case matches with score 1', () => {
    assert.equal(best('acme robotics'), 'Acme Robotics');
    assert.equal(matcher.best('ACME ROBOTICS')?.score, 1);
  });

  test('the GitHub organisation slug matches', () => {
    assert.equal(best('orbdyn'), 'Orbital Dynamics Labs');
    assert.equal(best('datalabs-io'), 'Data Labs');
  });

  test('spacing and punctuation do not matter', () => {
    assert.equal(best('AcmeRobotics'), 'Acme Robotics');
    assert.equal(best('acme-health!!'), 'Acme Health');
    assert.equal(best('soderberg ai'), 'Söderberg AI');
  });

  test('typos find the closest name, not the first substring hit', () => {
    assert.equal(best('acme helth'), 'Acme Health');
    assert.equal(best('Acme Robotcs'), 'Acme Robotics');
    assert.equal(best('Orbital Dynamcs Lab'), 'Orbital Dynamics Labs');
  });

  test('a distinctive word finds its company', () => {
    assert.equal(best('zenith'), 'Zenith Data');
    assert.equal(best('orbital'), 'Orbital Dynamics Labs');
  });

  test('a query with no letters or digits is a miss', () => {
    for (const q of ['', '   ', '!!!', '---', '🙂']) assert.equal(matcher.best(q), undefined, JSON.stringify(q));
  });

  test('an unrelated query is a miss', () => {
    assert.equal(matcher.best('quantum bakery'), undefined);
    assert.equal(matcher.best('x'), undefined);
  });

  test('scores lie in 0..1 and a looser match scores lower', () => {
    const exact = matcher.best('Acme Health')!.score;
    const typo = matcher.best('acme helth')!.score;
    assert.ok(exact <= 1 && typo < exact && typo > 0);
  });
});
