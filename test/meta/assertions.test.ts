import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import ts from 'typescript';

/**
 * Every test asserts something. A test's body (with the functions it calls, followed by name through every file
 * under test/) must call `assert` (any of its functions, or a name imported from node:assert), `t.assert`, a
 * library's `assert` (fast-check's `fc.assert`), `expect`, or throw. A helper that asserts in a way this scan cannot
 * see (one from a package, say) is named in ASSERTING_HELPERS.
 */
const ASSERTING_HELPERS = new Set<string>();

const testDir = path.resolve(import.meta.dirname, '..');
const repoRoot = path.resolve(testDir, '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(file);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

type FunctionLike = ts.ArrowFunction | ts.FunctionExpression | ts.FunctionDeclaration | ts.MethodDeclaration;

const isFunctionLike = (node: ts.Node): node is FunctionLike =>
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node);

/** The name a call is made by: `f(...)`, `x.f(...)` → f; and the leftmost name of the callee: `assert.equal` → assert. */
function callNames(call: ts.CallExpression): { name?: string; root?: string } {
  let callee: ts.Expression = call.expression;
  while (ts.isNonNullExpression(callee) || ts.isParenthesizedExpression(callee)) callee = callee.expression;
  const name = ts.isIdentifier(callee)
    ? callee.text
    : ts.isPropertyAccessExpression(callee)
      ? callee.name.text
      : undefined;
  let left: ts.Expression = callee;
  while (ts.isPropertyAccessExpression(left) || ts.isCallExpression(left) || ts.isNonNullExpression(left)) {
    left = ts.isCallExpression(left) ? left.expression : left.expression;
  }
  const rootName = ts.isIdentifier(left) ? left.text : undefined;
  // t.assert.equal(...), or an assert method of another library: fc.assert(...).
  const viaAssert =
    (ts.isPropertyAccessExpression(callee) && callee.name.text === 'assert') ||
    (ts.isPropertyAccessExpression(callee) &&
      ts.isPropertyAccessExpression(callee.expression) &&
      callee.expression.name.text === 'assert');
  return { name, root: viaAssert ? 'assert' : rootName };
}

interface Parsed {
  file: string;
  source: ts.SourceFile;
  /** Names imported from node:assert (besides its default). */
  assertImports: Set<string>;
}

function parse(file: string, text = readFileSync(file, 'utf8')): Parsed {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const assertImports = new Set<string>(['assert', 'expect']);
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!/^(node:)?assert(\/strict)?$/.test(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (clause?.name) assertImports.add(clause.name.text);
    const bindings = clause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const b of bindings.elements) assertImports.add(b.name.text);
    if (bindings && ts.isNamespaceImport(bindings)) assertImports.add(bindings.name.text);
  }
  return { file, source, assertImports };
}

/** Whether a body asserts: an assertion call, a throw, or a call to a function known to assert. */
function asserts(body: ts.Node, parsed: Parsed, asserting: ReadonlySet<string>): boolean {
  let found = false;
  const visit = (node: ts.Node): void => {
    if (found) return;
    if (ts.isThrowStatement(node)) found = true;
    else if (ts.isCallExpression(node)) {
      const { name, root } = callNames(node);
      if ((root && parsed.assertImports.has(root)) || (name && (asserting.has(name) || ASSERTING_HELPERS.has(name)))) {
        found = true;
      }
    }
    if (!found) ts.forEachChild(node, visit);
  };
  visit(body);
  return found;
}

/** The functions declared with a name in a file: declarations, methods and `const f = () => ...`. */
function namedFunctions(parsed: Parsed): [string, FunctionLike][] {
  const out: [string, FunctionLike][] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name && ts.isIdentifier(node.name)) {
      out.push([node.name.text, node]);
    } else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      if (isFunctionLike(node.initializer)) out.push([node.name.text, node.initializer]);
    }
    ts.forEachChild(node, visit);
  };
  visit(parsed.source);
  return out;
}

/** Names of the functions under test/ that assert, followed through the functions they call. */
function assertingFunctions(files: readonly Parsed[]): Set<string> {
  const functions = files.flatMap((parsed) => namedFunctions(parsed).map(([name, fn]) => ({ name, fn, parsed })));
  const asserting = new Set<string>();
  for (let changed = true; changed;) {
    changed = false;
    for (const { name, fn, parsed } of functions) {
      if (!asserting.has(name) && asserts(fn, parsed, asserting)) {
        asserting.add(name);
        changed = true;
      }
    }
  }
  return asserting;
}

/** Every `test(...)`/`it(...)` (and `t.test(...)`) with a body that asserts nothing: file:line and its name. */
function testsWithoutAssertion(files: readonly Parsed[]): string[] {
  const asserting = assertingFunctions(files);
  const found: string[] = [];
  for (const parsed of files) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        const isTest =
          (ts.isIdentifier(callee) && (callee.text === 'test' || callee.text === 'it')) ||
          (ts.isPropertyAccessExpression(callee) && callee.name.text === 'test' && ts.isIdentifier(callee.expression));
        const body = node.arguments.at(-1);
        if (isTest && body && isFunctionLike(body) && !asserts(body, parsed, asserting)) {
          const line = parsed.source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
          const title = node.arguments[0]?.getText(parsed.source) ?? '';
          found.push(`${path.relative(repoRoot, parsed.file)}:${line} ${title}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(parsed.source);
  }
  return found;
}

describe('the test suite', () => {
  test('every test asserts something', () => {
    const files = testFiles(testDir).map((file) => parse(file));
    assert.ok(files.length > 100, 'the scan saw the test files');
    assert.deepEqual(testsWithoutAssertion(files), []);
  });

  test('the scan finds a test that asserts nothing, and accepts one that asserts through a helper', () => {
    const parsed = parse(
      path.join(testDir, 'meta', 'sample.ts'),
      [
        "import assert from 'node:assert/strict';",
        "import { test } from 'node:test';",
        'const check = (n: number) => assert.equal(n, 1);',
        "test('asserts', () => assert.ok(true));",
        "test('through a helper', () => check(1));",
        "test('nothing', async () => { await Promise.resolve(1); });",
      ].join('\n'),
    );
    assert.deepEqual(testsWithoutAssertion([parsed]), [`test/meta/sample.ts:6 'nothing'`]);
  });
});
