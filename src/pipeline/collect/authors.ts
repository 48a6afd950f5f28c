import { createHash } from 'node:crypto';
import { AUTOMATION_KEY_PREFIX, automationIdentityOf } from '../../domain/automation.js';

/** Author of commits that GitHub's daily statistics count without naming anyone (see activity.ts). */
export const UNATTRIBUTED_AUTHOR = 'stats:unattributed';

const NOREPLY = /^(?:\d+\+)?([a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\[bot\])?)@users\.noreply\.github\.com$/i;

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/**
 * One stable key per commit author. A linked GitHub account gives its login; an unlinked commit made through
 * GitHub's no-reply address gives the login inside it (this is how App bots such as `dependabot[bot]` appear, since
 * GitHub does not link their commits to a user); an AI agent's own address (domain/automation.ts) gives
 * `automation:<agent>`; otherwise a hash of the e-mail (or the name), so no address is stored. Keys are compared
 * case-insensitively by the later stages.
 */
export function authorKey(
  author: { name?: string | null; email?: string | null; user?: { login: string } | null } | null | undefined,
): string {
  if (author?.user?.login) return author.user.login;
  const agent = author ? automationIdentityOf(author) : undefined;
  if (agent) return `${AUTOMATION_KEY_PREFIX}${agent}`;
  const email = author?.email?.trim().toLowerCase();
  const noreply = email ? NOREPLY.exec(email) : null;
  if (noreply) return noreply[1]!;
  const name = author?.name?.trim();
  if (name && /\[bot\]$/i.test(name)) return name;
  if (email) return `email:${shortHash(email)}`;
  if (name) return `name:${shortHash(name.toLowerCase())}`;
  return 'unknown';
}
