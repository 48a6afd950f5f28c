/**
 * Authors that are not people: automation accounts and AI coding agents. Their commits are counted apart from
 * people's (as automation commits) and never make anyone a contributor.
 *
 * Two parts:
 * - the rule for GitHub App accounts and common automation logins (BOT_LOGIN_PATTERN in rules.ts): an App's account
 *   is named `<app>[bot]`, which also covers the agents that work through an App (Devin, Claude's GitHub App, …);
 * - a maintained list of identities that do not look like bots, each with the public page that states it: AI coding
 *   agents committing under their own name or address, not as `…[bot]`.
 * To add an identity: append an entry with the page that shows the agent authoring commits under it.
 */
import { BOT_LOGIN_PATTERN } from './rules.js';

export interface AutomationIdentity {
  /** What the identity is, in a few words. */
  agent: string;
  /** Matched against the author key (a login) and, at collection, the commit's author name and e-mail. */
  login?: RegExp | undefined;
  email?: RegExp | undefined;
  /** A public page that states the agent commits under this identity. */
  source: string;
}

export const AUTOMATION_IDENTITIES: readonly AutomationIdentity[] = [
  {
    agent: 'GitHub Copilot coding agent',
    login: /^copilot$/i,
    email: /^(?:\d+\+)?copilot@users\.noreply\.github\.com$/i,
    source: 'https://github.com/orgs/community/discussions/179983',
  },
  {
    agent: 'Claude Code (Anthropic), committing as Claude',
    email: /^noreply@anthropic\.com$/i,
    source: 'https://github.com/anthropics/claude-code/issues/29999',
  },
  {
    agent: 'Devin (Cognition) through its GitHub App',
    login: /^devin-ai-integration(?:\[bot\])?$/i,
    source: 'https://github.com/apps/devin-ai-integration',
  },
];

/** The author key an automation identity is stored under when it has no login of its own. */
export const AUTOMATION_KEY_PREFIX = 'automation:';

/** Whether an author key (login, `email:<hash>`, `automation:<agent>`) is automation or an AI agent. */
export function isAutomationAuthor(key: string): boolean {
  if (key.startsWith(AUTOMATION_KEY_PREFIX)) return true;
  if (BOT_LOGIN_PATTERN.test(key)) return true;
  return AUTOMATION_IDENTITIES.some((id) => id.login?.test(key));
}

/**
 * At collection, the commit's author as it is written (name and e-mail, which are not stored): the identity it
 * matches, if any. A key for it is `automation:<agent>`, so that hashing the address does not hide what it is.
 */
export function automationIdentityOf(author: { name?: string | null; email?: string | null }): string | undefined {
  const email = author.email?.trim() ?? '';
  const name = author.name?.trim() ?? '';
  for (const id of AUTOMATION_IDENTITIES) {
    if ((email && id.email?.test(email)) || (name && id.login?.test(name))) return id.agent;
  }
  return undefined;
}
