/**
 * What `npm test` runs after the type check: every test file (`testFiles`, the longest first) through Node's test
 * runner, three files at a time, each in its own process, reported by the spec reporter and closed by the summary
 * line. Node's command line (`node --test <files…>`) sorts the files by name before it starts them; `run()` keeps
 * the order given. Start it with `node --import tsx`: each file's process inherits that flag. Files given as
 * arguments are run instead of all of them; TEST_CONCURRENCY changes how many run at once.
 */
import { PassThrough } from 'node:stream';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import summary from './summary-reporter.mjs';
import { testFiles } from './test-files.mjs';

const files = process.argv.length > 2 ? process.argv.slice(2) : testFiles();
const concurrency = Number(process.env.TEST_CONCURRENCY || 3);
const events = run({ files, concurrency });
// Any failure fails the run, as `node --test` does (a failing todo test does not).
events.on('test:fail', (event) => {
  if (!event.todo) process.exitCode = 1;
});
const toSpec = new PassThrough({ objectMode: true });
const toSummary = new PassThrough({ objectMode: true });
events.pipe(toSpec);
events.pipe(toSummary);
// Both read at once, so neither holds the other back; the summary line is written last.
const closing = (async () => {
  let text = '';
  for await (const chunk of summary(toSummary)) text += chunk;
  return text;
})();
for await (const chunk of toSpec.pipe(spec())) process.stdout.write(chunk);
process.stdout.write(await closing);
