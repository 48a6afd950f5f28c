import assert from 'node:assert/strict';
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';

const HOST = path.resolve(import.meta.dirname, '../../src/store/embedded-host.ts');

describe('the embedded database host', () => {
  test('a parent that goes away while the database opens: the host closes cleanly, with no IPC error', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-host-'));
    after(() => rm(dataDir, { recursive: true, force: true }));
    const child = fork(HOST, [dataDir], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.disconnect();
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.doesNotMatch(stderr, /ERR_IPC_CHANNEL_CLOSED/);
    assert.equal(code, 0, stderr);
  });
});
