import { createHash } from 'node:crypto';
import { isAutomationAuthor } from '../../domain/automation.js';

/**
 * Mail providers anyone can sign up with: an address there says nothing about where its owner works, so two members
 * of a team using one is no sign that it is the team's own. Kept to the large public providers; an address at any
 * other domain is counted as that domain's.
 */
export const CONSUMER_MAIL_DOMAINS: readonly string[] = [
  '126.com',
  '163.com',
  'aol.com',
  'fastmail.com',
  'fastmail.fm',
  'foxmail.com',
  'gmail.com',
  'gmx.com',
  'gmx.de',
  'gmx.net',
  'googlemail.com',
  'hey.com',
  'hotmail.com',
  'hotmail.co.uk',
  'hotmail.fr',
  'icloud.com',
  'live.com',
  'mac.com',
  'mail.com',
  'mail.ru',
  'me.com',
  'msn.com',
  'naver.com',
  'outlook.com',
  'outlook.fr',
  'pm.me',
  'proton.me',
  'protonmail.com',
  'qq.com',
  'tutanota.com',
  'web.de',
  'yahoo.com',
  'yahoo.co.jp',
  'yahoo.fr',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
];

const CONSUMER = new Set(CONSUMER_MAIL_DOMAINS);

/** GitHub's no-reply addresses hide where their owner works. */
const GITHUB_NOREPLY = /@users\.noreply\.github\.com$/i;

/**
 * What an author's address tells about where they work, without keeping it: `noreply` (GitHub's no-reply address:
 * nothing), `consumer` (a public mail provider: nothing either, but it is a personal address), or `domain:<hash>`
 * for any other domain, the first 12 hex digits of its SHA-256, so that two people on one domain can be told apart
 * from two on different ones while no domain (a personal one names its owner) is stored. Null: no address.
 */
export function addressKind(email: string): string | null {
  const at = email.trim().toLowerCase();
  const i = at.lastIndexOf('@');
  if (i < 0 || i === at.length - 1) return null;
  if (GITHUB_NOREPLY.test(at)) return 'noreply';
  const domain = at.slice(i + 1);
  if (CONSUMER.has(domain)) return 'consumer';
  return `domain:${createHash('sha256').update(domain).digest('hex').slice(0, 12)}`;
}

/**
 * The kinds of each person's addresses (see addressKind), sorted, by author key (lower case): what the collected
 * commits' authors committed from, automation and AI agents left out.
 */
export function peopleAddresses(emails: ReadonlyMap<string, ReadonlySet<string>>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of [...emails.keys()].sort()) {
    if (isAutomationAuthor(key)) continue;
    const kinds = new Set<string>();
    for (const e of emails.get(key)!) {
      const kind = addressKind(e);
      if (kind) kinds.add(kind);
    }
    if (kinds.size) out[key] = [...kinds].sort();
  }
  return out;
}
