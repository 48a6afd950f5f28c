import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nlwebAnswer } from '../../../src/core/answers/nlweb.js';
import { BASE, demoSnapshot } from '../fixtures.js';

const snapshot = demoSnapshot();

describe('NLWeb answers', () => {
  test('a list question is an ItemList of Organizations in answer order', () => {
    const ld = nlwebAnswer(snapshot, BASE, 'fastest accelerating robotics startups');
    assert.equal(ld['@context'], 'https://schema.org');
    assert.equal(ld['@type'], 'ItemList');
    const items = ld.itemListElement as { position: number; item: { '@type': string; url: string } }[];
    assert.ok(items.length > 0);
    assert.deepEqual(
      items.map((i) => i.position),
      items.map((_, i) => i + 1),
    );
    assert.ok(items.every((i) => i.item['@type'] === 'Organization' && i.item.url.startsWith(`${BASE}/startups/`)));
    assert.equal(ld.numberOfItems, items.length);
  });

  test('a question about one startup is an Organization with its published figures in a Dataset about it', () => {
    const s = snapshot.startups[5]!;
    const ld = nlwebAnswer(snapshot, BASE, `What is the engineering signal for ${s.startup.name}?`);
    assert.equal(ld['@type'], 'Organization');
    assert.equal(ld.name, s.startup.name);
    assert.equal(ld.additionalProperty, undefined, 'schema.org has no additionalProperty on Organization');
    const [signal, question] = ld.subjectOf as { '@type': string; variableMeasured?: unknown }[];
    assert.equal(signal!['@type'], 'Dataset');
    assert.equal(question!['@type'], 'Question');
    const props = signal!.variableMeasured as { '@type': string; name: string; value: unknown }[];
    assert.ok(props.every((p) => p['@type'] === 'PropertyValue'));
    assert.equal(props.find((p) => p.name === 'commitVelocity14d')!.value, s.startup.commitVelocity14d);
    assert.equal(props.find((p) => p.name === 'signalType')!.value, s.startup.signalType);
  });

  test('a question about the data is a Dataset with its distributions and licence', () => {
    const ld = nlwebAnswer(snapshot, BASE, 'How many startups does the service track?');
    assert.equal(ld['@type'], 'Dataset');
    assert.equal(ld.license, 'https://creativecommons.org/licenses/by/4.0/');
    assert.ok((ld.distribution as unknown[]).length >= 3);
  });

  test('a question about the service is a Question with its accepted answer', () => {
    const ld = nlwebAnswer(snapshot, BASE, 'Do credits expire?');
    assert.equal(ld['@type'], 'Question');
    assert.equal((ld.acceptedAnswer as { '@type': string })['@type'], 'Answer');
  });

  test('an unanswerable question is an empty ItemList named No result with a search action', () => {
    const ld = nlwebAnswer(snapshot, BASE, 'banana smoothie recipe');
    assert.equal(ld['@type'], 'ItemList');
    assert.equal(ld.name, 'No result');
    assert.equal(ld.numberOfItems, 0);
    assert.deepEqual(ld.itemListElement, []);
    assert.equal((ld.potentialAction as { '@type': string })['@type'], 'SearchAction');
  });

  test('no answer puts additionalProperty on an Organization, in any kind of answer', () => {
    const queries = [
      'fastest accelerating robotics startups',
      `What is the engineering signal for ${snapshot.startups[3]!.startup.name}?`,
      'How many startups does the service track?',
      'Do credits expire?',
      'banana smoothie recipe',
    ];
    const organizations = (node: unknown): Record<string, unknown>[] => {
      if (Array.isArray(node)) return node.flatMap(organizations);
      if (typeof node !== 'object' || node === null) return [];
      const own =
        (node as Record<string, unknown>)['@type'] === 'Organization' ? [node as Record<string, unknown>] : [];
      return [...own, ...Object.values(node).flatMap(organizations)];
    };
    for (const q of queries) {
      for (const org of organizations(nlwebAnswer(snapshot, BASE, q)))
        assert.equal(org.additionalProperty, undefined, q);
    }
  });
});
