import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** A git command that failed, with what git said. */
export class GitError extends Error {
  override name = 'GitError';
}

/**
 * The environment every git command of the git source runs in: no system or user configuration (a user's
 * `diff.renames`, `log.showSignature` or pager would change what is read), no prompt for credentials (a clone of a
 * repository that is gone fails instead of waiting), and a fixed locale.
 */
function gitEnv(): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: 'true',
  };
}

/** Runs `git -C dir …` and returns its standard output (up to 1 GiB: a large repository's whole log). */
export async function git(dir: string | undefined, args: readonly string[]): Promise<string> {
  try {
    const { stdout } = await exec('git', [...(dir ? ['-C', dir] : []), ...args], {
      env: gitEnv(),
      maxBuffer: 1 << 30,
      encoding: 'utf8',
    });
    return stdout;
  } catch (err) {
    const e = err as Error & { stderr?: string; code?: number | string };
    if (e.code === 'ENOENT') throw new GitError('git is not installed (the git source needs the `git` command)');
    const said = (e.stderr ?? '').trim().split('\n').slice(-3).join(' ');
    throw new GitError(`git ${args.slice(0, 3).join(' ')} failed${dir ? ` in ${dir}` : ''}: ${said || e.message}`);
  }
}
