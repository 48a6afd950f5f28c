/** `node dist/store/make-pglite-template.js`: builds the embedded database's cluster template (run by the build). */
import { ensureTemplate } from './pglite-template.js';

process.stdout.write(`${await ensureTemplate()}\n`);
