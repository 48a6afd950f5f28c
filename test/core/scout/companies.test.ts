import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  parseCompanies,
  plausibleMilestoneDate,
  VALIDATED_COMPANIES_FILE,
  validatedCompanies,
} from '../../../src/core/scout/companies.js';

const record = {
  company: 'Example',
  org: 'example',
  repository: 'example',
  milestone: 'ipo',
  date: '2020-01-02',
  detail: 'Initial public offering',
  source: 'https://en.wikipedia.org/wiki/Example',
};

describe('validated companies', () => {
  test('every record of the data file has an https source, a milestone type and a plausible date', () => {
    const { companies } = validatedCompanies();
    assert.ok(companies.length >= 40, `only ${companies.length} records`);
    for (const c of companies) {
      assert.match(c.source, /^https:\/\/[^\s/]+\.[a-z]{2,}\//, `${c.company}: source`);
      assert.ok(['ipo', 'acquisition', 'priced-round'].includes(c.milestone), `${c.company}: milestone`);
      assert.ok(plausibleMilestoneDate(c.date), `${c.company}: date ${c.date}`);
    }
  });

  test('each organisation is listed once', () => {
    const { companies, byOrg } = validatedCompanies();
    assert.equal(byOrg.size, companies.length);
  });

  test('a date that is not a real day is rejected, naming the record', () => {
    assert.throws(() => parseCompanies([{ ...record, date: '2021-02-30' }], VALIDATED_COMPANIES_FILE), /0\.date/);
  });

  test('a milestone before GitHub existed or in the future is rejected', () => {
    const today = new Date('2026-01-01T00:00:00Z');
    assert.throws(() => parseCompanies([{ ...record, date: '2007-12-31' }], 'f', today), /not a real day/);
    assert.throws(() => parseCompanies([{ ...record, date: '2026-01-02' }], 'f', today), /not a real day/);
  });

  test('a record without a source, or with a non-https source, is rejected', () => {
    const { source: _source, ...withoutSource } = record;
    assert.throws(() => parseCompanies([withoutSource], 'f'), /source/);
    assert.throws(() => parseCompanies([{ ...record, source: 'http://example.com/a' }], 'f'), /source/);
  });

  test('an adoption count is not a milestone type', () => {
    assert.throws(() => parseCompanies([{ ...record, milestone: '10k-stars' }], 'f'), /milestone/);
  });

  test('an organisation listed twice is rejected', () => {
    assert.throws(() => parseCompanies([record, { ...record, org: 'EXAMPLE' }], 'f'), /listed twice/);
  });
});
