/**
 * Preloaded with `node --import` by tests that check which modules a process loads (test/build.test.ts): registers
 * a module-loading hook that appends the URL of every module loaded through the ES module loader (the bundle's
 * chunks, and the entry of each library kept outside the bundle) to the file named by MODULE_RECORD_FILE.
 */
import { register } from 'node:module';

register('./module-recorder-hooks.mjs', import.meta.url, { data: { file: process.env.MODULE_RECORD_FILE } });
