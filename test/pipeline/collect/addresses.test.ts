import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { addressKind, peopleAddresses } from '../../../src/pipeline/collect/addresses.js';

describe("the kinds of an author's address", () => {
  test("GitHub's no-reply address is noreply", () => {
    assert.equal(addressKind('12345+someone@users.noreply.github.com'), 'noreply');
  });

  test('a public mail provider is consumer, whatever the case', () => {
    assert.equal(addressKind('Someone@GMail.com'), 'consumer');
  });

  test('any other domain is a hash of the domain alone, the same for everyone on it, and never the domain itself', () => {
    const a = addressKind('one@acme.example')!;
    assert.match(a, /^domain:[0-9a-f]{12}$/);
    assert.equal(addressKind('two@ACME.example'), a);
    assert.notEqual(addressKind('one@other.example'), a);
    assert.ok(!a.includes('acme'));
  });

  test('a string without a domain has no kind', () => {
    assert.equal(addressKind('no-at-sign'), null);
    assert.equal(addressKind('trailing@'), null);
  });

  test("each person's kinds are listed once, sorted, and automation is left out", () => {
    const emails = new Map([
      ['ann', new Set(['ann@acme.example', 'ann@gmail.com', 'ann2@gmail.com'])],
      ['dependabot[bot]', new Set(['49699333+dependabot[bot]@users.noreply.github.com'])],
    ]);
    assert.deepEqual(peopleAddresses(emails), { ann: ['consumer', addressKind('x@acme.example')!].sort() });
  });
});
