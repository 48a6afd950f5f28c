import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { html, jsonLdScript, raw } from '../../src/web/html.js';

describe('html template', () => {
  test('escapes interpolated text', () => {
    const name = '<script>alert("x")</script> & \'co\'';
    assert.equal(
      html`<p title="${name}">${name}</p>`.value,
      '<p title="&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39;">&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39;</p>',
    );
  });

  test('keeps nested templates and raw markup as markup', () => {
    const inner = html`<b>${'a<b'}</b>`;
    assert.equal(html`<p>${inner}${raw('<i>ok</i>')}</p>`.value, '<p><b>a&#60;b</b><i>ok</i></p>');
  });

  test('joins arrays and drops null, undefined and booleans', () => {
    const inner = html`<b>x</b>`;
    assert.equal(html`${['<', inner, null, undefined, false, true, 0]}`.value, '&#60;<b>x</b>0');
  });

  test('JSON-LD cannot close its script element', () => {
    const out = jsonLdScript({ name: '</script><script>alert(1)</script>' }).value;
    assert.equal(out.match(/<\/script>/g)?.length, 1);
    assert.ok(out.includes('\\u003c/script\\u003e'));
    const json = out.slice('<script type="application/ld+json">'.length, -'</script>'.length);
    assert.equal(JSON.parse(json).name, '</script><script>alert(1)</script>');
  });
});
