import fs from 'node:fs/promises';
import path from 'node:path';
import { transform } from 'esbuild';

/**
 * Writes a source module of the project (`src/…`, one that imports only Node's built-ins) transpiled to plain ES
 * module JavaScript at `outFile`, for tests that run it in a plain `node` child: without the tsx loader, whose hooks
 * would change what V8 does.
 */
export async function writePlainModule(sourceFile: string, outFile: string): Promise<void> {
  const source = await fs.readFile(path.resolve(sourceFile), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm' });
  await fs.writeFile(outFile, code);
}
