/**
 * `tsc --noEmit` over tsconfig.json, incremental: what the last check of this checkout found is kept in the test
 * cache (a .tsbuildinfo named after the checkout's path, so worktrees never share one), and only what changed since
 * is checked again. The result is the same as a full check; deleting the file makes the next one full.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = path.join(os.tmpdir(), 'signal-service-test-cache');
fs.mkdirSync(dir, { recursive: true });
const info = path.join(dir, `tsc-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.tsbuildinfo`);
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const args = [tsc, '-p', path.join(root, 'tsconfig.json'), '--noEmit', '--incremental', '--tsBuildInfoFile', info];
const { status, signal } = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
process.exit(status ?? (signal ? 1 : 0));
