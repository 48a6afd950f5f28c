#!/usr/bin/env node
// Extracts the real-activity evaluation fixtures (data/eval/real-activity/orgs/<org>.json.gz) from bare git
// mirrors brought onto this machine by the `fetch` tool (/work/.mirror/<owner>+<name>/repo).
//
//   node --import tsx scripts/real-activity/extract.mjs \
//     --labels data/eval/real-activity/labels.yaml --watchlist data/watchlist.yaml \
//     --mirrors /work/.mirror --out data/eval/real-activity/orgs [--lookback-days 400] [--org <login>]...
//
// For every organisation named in the labels file, the repositories are the watchlist `repository` of that
// organisation plus every other mirror whose owner is the organisation (case-insensitive). It reads git only:
// it never runs anything from the mirrors. Natural persons are replaced by per-organisation pseudonyms; of their
// addresses only the kind of domain is kept: GitHub's no-reply domain and the public mail providers the collector
// knows (src/pipeline/collect/addresses.ts) verbatim, every other domain as domain-<n>.example, numbered per
// organisation in order of first appearance, so two people on one domain stay on one domain.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CONSUMER_MAIL_DOMAINS } from '../../src/pipeline/collect/addresses.ts';

const DAY = 86400000;
const args = process.argv.slice(2);
const opt = { labels: null, watchlist: null, mirrors: '/work/.mirror', out: null, lookback: 400, orgs: [] };
for (let i = 0; i < args.length; i++) {
  const a = args[i];
  if (a === '--labels') opt.labels = args[++i];
  else if (a === '--watchlist') opt.watchlist = args[++i];
  else if (a === '--mirrors') opt.mirrors = args[++i];
  else if (a === '--out') opt.out = args[++i];
  else if (a === '--lookback-days') opt.lookback = Number(args[++i]);
  else if (a === '--org') opt.orgs.push(args[++i].toLowerCase());
  else throw new Error(`unknown argument ${a}`);
}
if (!opt.labels || !opt.watchlist || !opt.out) {
  console.error(
    'usage: extract.mjs --labels FILE --watchlist FILE --out DIR [--mirrors DIR] [--lookback-days N] [--org LOGIN]',
  );
  process.exit(2);
}

// ---- inputs -------------------------------------------------------------------------------------------------
/** ISO week "2026-w14" -> the instant just after that week's Sunday (Monday 00:00 UTC of the next week). */
function weekEnd(period) {
  const m = /^(\d{4})-w(\d{2})$/.exec(period);
  if (!m) throw new Error(`bad period ${period}`);
  const year = Number(m[1]),
    week = Number(m[2]);
  const jan4 = Date.UTC(year, 0, 4);
  const jan4Dow = (new Date(jan4).getUTCDay() + 6) % 7; // Monday = 0
  const week1Monday = jan4 - jan4Dow * DAY;
  return week1Monday + week * 7 * DAY;
}

const labelRows = [];
for (const line of readFileSync(opt.labels, 'utf8').split('\n')) {
  const org = /^\s*-\s*\{\s*org:\s*([^,\s]+)/.exec(line);
  const period = /period:\s*(\d{4}-w\d{2})/.exec(line);
  if (org && period) labelRows.push({ org: org[1], period: period[1] });
}
const watch = new Map(); // lower login -> { login, repository }
let cur = null;
for (const line of readFileSync(opt.watchlist, 'utf8').split('\n')) {
  let m = /^\s+- login:\s*(\S+)/.exec(line);
  if (m) {
    cur = { login: m[1], repository: null };
    watch.set(m[1].toLowerCase(), cur);
    continue;
  }
  m = /^\s+repository:\s*(\S+)/.exec(line);
  if (m && cur) cur.repository = m[1];
}

const byOrg = new Map();
for (const r of labelRows) {
  const key = r.org.toLowerCase();
  if (opt.orgs.length && !opt.orgs.includes(key)) continue;
  if (!watch.has(key)) throw new Error(`${r.org} is not in the watchlist`);
  if (!byOrg.has(key)) byOrg.set(key, []);
  byOrg.get(key).push(weekEnd(r.period));
}

// ---- git helpers --------------------------------------------------------------------------------------------
function git(gitDir, argv, input) {
  return execFileSync('nice', ['git', '--git-dir', gitDir, ...argv], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    input,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
}
const iso = (s) => new Date(s).toISOString();

// ---- identities ---------------------------------------------------------------------------------------------
// Automation and AI coding agents keep their identity verbatim. The patterns are deliberately narrow (exact agent
// names and their own addresses) so that no natural person with, say, the first name Claude or Devin is kept.
const AUTOMATION_NAME = new RegExp(
  [
    '\\[bot\\]$',
    '(^|[\\s_-])bot$',
    '^bot([\\s_-]|$)',
    '^github-actions',
    '^dependabot',
    '^renovate',
    '^github$',
    '^github action$',
    '^semantic-release',
    '^turbobot$',
    '-deploy$',
    '^greenkeeper',
    '^snyk-bot',
    '^mergify',
    '^imgbot',
    '^allcontributors',
    '^all-contributors',
    '^pre-commit-ci',
    '^deepsource',
    '^coderabbit',
    '^autofix-ci',
    '^weblate$',
    '^changeset-bot',
    '^release-please',
  ].join('|'),
  'i',
);
// GitHub's own address (noreply@github.com) marks automation only beside GitHub's own name (its web-flow committer):
// a person who committed under it is a person.
const AUTOMATION_EMAIL =
  /\[bot\]@|^action@github\.com$|^noreply@anthropic\.com$|^noreply@openai\.com$|^cursoragent@cursor\.com$|^\d+\+copilot@users\.noreply\.github\.com$|^semantic-release|^turbobot@vercel\.com$/i;
// AI coding agents are known by name only together with an address of their own (their vendor's, GitHub's, or a
// noreply address of the agent's login): a co-author trailer "Claude <someone@personal.example>" names a person.
const AGENT_NAME = /^(copilot|cursor agent|claude|claude (opus|sonnet|haiku|code).*|codex|jules)$/i;
const AGENT_EMAIL =
  /@(anthropic\.com|openai\.com|cursor\.com|google\.com|github\.com)$|^(\d+\+)?(claude|copilot|codex|jules|cursor[\w-]*)@users\.noreply\.github\.com$/i;
function isAutomation(p) {
  if (AUTOMATION_NAME.test(p.name) || AUTOMATION_EMAIL.test(p.email)) return true;
  return AGENT_NAME.test(p.name) && (p.email === '' || AGENT_EMAIL.test(p.email));
}
function noreplyLogin(email, keepCase = false) {
  const m = /^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$/i.exec(email);
  return m ? (keepCase ? m[1] : m[1].toLowerCase()) : null;
}
function parsePerson(s) {
  const m = /^\s*(.*?)\s*<([^>]*)>\s*$/.exec(s);
  return m ? { name: m[1], email: m[2] } : { name: s.trim(), email: '' };
}

class Pseudonyms {
  constructor() {
    this.parent = new Map();
    this.order = []; // identity keys in first-appearance order
    this.seenRaw = new Set();
    this.kept = new Map(); // automation identities kept verbatim: "name <email>" -> count
    this.domains = new Map(); // other domains -> domain-<n>.example, in order of first appearance
  }
  domainOf(email) {
    const at = email.trim().toLowerCase();
    const i = at.lastIndexOf('@');
    const domain = i < 0 ? '' : at.slice(i + 1);
    if (!domain || domain === 'users.noreply.github.com') return 'users.noreply.github.com';
    if (CONSUMER_MAIL_DOMAINS.includes(domain)) return domain;
    if (!this.domains.has(domain)) this.domains.set(domain, `domain-${this.domains.size + 1}.example`);
    return this.domains.get(domain);
  }
  find(k) {
    while (this.parent.get(k) !== k) {
      const p = this.parent.get(k);
      this.parent.set(k, this.parent.get(p));
      k = p;
    }
    return k;
  }
  add(k) {
    if (!this.parent.has(k)) this.parent.set(k, k);
  }
  union(a, b) {
    const ra = this.find(a),
      rb = this.find(b);
    if (ra !== rb) this.parent.set(rb, ra);
  }
  keys(p) {
    const ks = [];
    if (p.email) ks.push('e:' + p.email.toLowerCase());
    const login = noreplyLogin(p.email);
    if (login) ks.push('l:' + login);
    if (p.name) ks.push('n:' + p.name);
    if (!ks.length) ks.push('n:');
    return ks;
  }
  observe(p) {
    if (isAutomation(p)) return;
    this.domainOf(p.email);
    const ks = this.keys(p);
    ks.forEach((k) => this.add(k));
    for (let i = 1; i < ks.length; i++) this.union(ks[0], ks[i]);
    this.order.push(ks[0]);
  }
  finish() {
    this.label = new Map();
    let n = 0;
    for (const k of this.order) {
      const r = this.find(k);
      if (!this.label.has(r)) this.label.set(r, `person-${String(++n).padStart(3, '0')}`);
    }
    this.count = n;
  }
  map(p) {
    if (isAutomation(p)) {
      const id = `${p.name} <${p.email}>`;
      this.kept.set(id, (this.kept.get(id) ?? 0) + 1);
      return { name: p.name, email: p.email, login: noreplyLogin(p.email, true) };
    }
    const label = this.label.get(this.find(this.keys(p)[0]));
    return { name: label, email: `${label}@${this.domainOf(p.email)}`, login: label };
  }
}

// Snapshots lack blobs of 4 MiB and more: a diff that needs one (numstat, rename detection) fails. The commits are
// read in batches; a failing batch is split until the failing commit is alone, which is then read with
// --no-renames, and if its numstat still fails, with name-status only (additions and deletions 0).
const degraded = [];
function parseNameStatus(ns, status) {
  for (const rec of ns.split(SEP)) {
    if (!rec) continue;
    const parts = rec.split('\0');
    const oid = parts[0].trim();
    const files = [];
    let i = 1;
    while (i < parts.length) {
      const s = parts[i].replace(/^\n+/, '');
      if (!s) {
        i++;
        continue;
      }
      const code = s[0];
      if (code === 'R' || code === 'C') {
        files.push({ path: parts[i + 2], status: code, previousPath: parts[i + 1] });
        i += 3;
      } else {
        files.push({ path: parts[i + 1], status: code });
        i += 2;
      }
    }
    status.set(oid, files);
  }
}
function parseNumstat(nu, stats) {
  for (const rec of nu.split(SEP)) {
    if (!rec) continue;
    const parts = rec.split('\0');
    const lines = parts[0].split('\n');
    const oid = lines[0].trim();
    const m = new Map();
    const seq = [lines.slice(1).join('\n'), ...parts.slice(1)];
    let i = 0;
    while (i < seq.length) {
      const s = seq[i].replace(/^\n+/, '');
      if (!s) {
        i++;
        continue;
      }
      const t = s.split('\t');
      const add = t[0] === '-' ? 0 : Number(t[0]),
        del = t[1] === '-' ? 0 : Number(t[1]);
      if (t.length >= 3 && t[2] !== '') {
        m.set(t[2], { add, del });
        i += 1;
      } else {
        m.set(seq[i + 2], { add, del }); // rename/copy: "<add>\t<del>\t" NUL old NUL new
        i += 3;
      }
    }
    stats.set(oid, m);
  }
}
function filesFor(gitDir, oids, status = new Map(), stats = new Map()) {
  const stdin = oids.join('\n') + '\n';
  const base = ['log', '--no-walk=unsorted', '--stdin', '-z', `--format=${SEP}%H`];
  try {
    const ns = git(gitDir, [...base, '-M', '--name-status'], stdin);
    const nu = git(gitDir, [...base, '-M', '--numstat'], stdin);
    parseNameStatus(ns, status);
    parseNumstat(nu, stats);
  } catch (e) {
    if (oids.length > 1) {
      const h = Math.ceil(oids.length / 2);
      filesFor(gitDir, oids.slice(0, h), status, stats);
      filesFor(gitDir, oids.slice(h), status, stats);
    } else {
      parseNameStatus(git(gitDir, [...base, '--no-renames', '--name-status'], stdin), status);
      try {
        parseNumstat(git(gitDir, [...base, '--no-renames', '--numstat'], stdin), stats);
        degraded.push(`${gitDir}: ${oids[0]} without rename detection`);
      } catch {
        degraded.push(`${gitDir}: ${oids[0]} without line counts`);
      }
    }
  }
  return { status, stats };
}

// ---- per repository -----------------------------------------------------------------------------------------
const SEP = '\x1e',
  FS = '\x1f';
function readRepo(gitDir, lo, hi, fileWindows) {
  const headRef = git(gitDir, ['symbolic-ref', 'HEAD']).trim();
  const headOid = git(gitDir, ['rev-parse', 'HEAD']).trim();
  const roots = git(gitDir, ['log', '--max-parents=0', '--format=%aI', 'HEAD']).trim().split('\n').filter(Boolean);
  const createdAt = roots.map(iso).sort()[0];
  const fmt = [
    '%H',
    '%P',
    '%aI',
    '%cI',
    '%an',
    '%ae',
    '%cn',
    '%ce',
    '%(trailers:key=Co-authored-by,valueonly=true,separator=%x1d)',
  ].join('%x1f');
  const out = git(gitDir, ['log', 'HEAD', '--date-order', `--format=${SEP}${fmt}`]);
  const commits = [];
  for (const rec of out.split(SEP)) {
    if (!rec.trim()) continue;
    const f = rec.replace(/\n+$/, '').split(FS);
    const committed = Date.parse(f[3]);
    if (committed < lo || committed > hi) continue;
    const co = (f[8] ?? '')
      .split('\x1d')
      .map((s) => s.trim())
      .filter(Boolean)
      .map(parsePerson);
    commits.push({
      oid: f[0],
      parents: f[1] ? f[1].split(' ') : [],
      authorDate: iso(f[2]),
      committedDate: iso(f[3]),
      author: { name: f[4], email: f[5] },
      committer: { name: f[6], email: f[7] },
      coAuthors: co,
    });
  }
  commits.sort((a, b) => (a.committedDate < b.committedDate ? -1 : a.committedDate > b.committedDate ? 1 : 0));

  // files for the commits inside a labelled week's window (merges show none: git log's default for merges)
  const want = commits.filter((c) => {
    const t = Date.parse(c.committedDate);
    return fileWindows.some(([a, b]) => t >= a && t < b);
  });
  if (want.length) {
    const { status, stats } = filesFor(
      gitDir,
      want.map((c) => c.oid),
    );
    for (const c of want) {
      const files = (status.get(c.oid) ?? []).map((f) => {
        const st = stats.get(c.oid)?.get(f.path) ?? { add: 0, del: 0 };
        const o = { path: f.path, status: f.status };
        if (f.previousPath !== undefined) o.previousPath = f.previousPath;
        o.additions = st.add;
        o.deletions = st.del;
        return o;
      });
      if (files.length > 300) {
        c.files = files.slice(0, 300);
        c.filesTruncated = true;
      } else c.files = files;
    }
  }

  // tags whose commit is kept
  const kept = new Map(commits.map((c) => [c.oid, c]));
  const tagOut = git(gitDir, [
    'for-each-ref',
    'refs/tags',
    '--format=%(refname:strip=2)%1f%(objecttype)%1f%(objectname)%1f%(*objecttype)%1f%(*objectname)%1f%(taggerdate:iso-strict)',
  ]);
  const tags = [];
  for (const line of tagOut.split('\n')) {
    if (!line) continue;
    const [name, type, oid, ptype, poid, tdate] = line.split(FS);
    let commitOid = null,
      annotated = false;
    if (type === 'commit') commitOid = oid;
    else if (type === 'tag') {
      annotated = true;
      if (ptype === 'commit') commitOid = poid;
      else {
        try {
          commitOid = git(gitDir, ['rev-parse', '--verify', '-q', `${oid}^{commit}`]).trim();
        } catch {
          commitOid = null;
        }
      }
    }
    const c = commitOid && kept.get(commitOid);
    if (!c) continue;
    tags.push({ name, oid: commitOid, date: annotated && tdate ? iso(tdate) : c.committedDate, annotated });
  }
  tags.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.name < b.name ? -1 : 1));
  const head = git(gitDir, ['log', '-1', '--format=%cI', 'HEAD']).trim();
  // The default branch's tip at the kept range's end: the newest commit of its first-parent chain committed by then
  // (a consumer finds the branch from it; the newest kept commit may be on a branch merged only later).
  const keptTip = git(gitDir, ['rev-list', '-1', '--first-parent', `--before=${Math.floor(hi / 1000)}`, 'HEAD']).trim();
  return {
    defaultBranch: headRef.replace(/^refs\/heads\//, ''),
    headOid,
    tipOid: commits.some((c) => c.oid === keptTip) ? keptTip : null,
    createdAt,
    snapshotDate: iso(head),
    commits,
    tags,
  };
}

// ---- main ---------------------------------------------------------------------------------------------------
mkdirSync(opt.out, { recursive: true });
const mirrors = existsSync(opt.mirrors) ? readdirSync(opt.mirrors).filter((d) => d.includes('+')) : [];
for (const [key, ends] of byOrg) {
  const w = watch.get(key);
  const names = new Set();
  if (w.repository) names.add(w.repository);
  for (const d of mirrors) {
    const [owner, name] = d.split('+');
    if (owner.toLowerCase() === key && existsSync(join(opt.mirrors, d, 'repo'))) names.add(`${owner}/${name}`);
  }
  const lo = Math.min(...ends) - opt.lookback * DAY;
  const hi = Math.max(...ends) + 70 * DAY;
  const fileWindows = ends.map((e) => [e - 35 * DAY, e + 7 * DAY]);
  const repos = [],
    extractedFrom = [];
  for (const full of [...names].sort()) {
    const gitDir = join(opt.mirrors, full.replace('/', '+'), 'repo');
    if (!existsSync(gitDir)) {
      console.error(`${w.login}: no mirror for ${full}, skipped`);
      continue;
    }
    const r = readRepo(gitDir, lo, hi, fileWindows);
    extractedFrom.push({ repo: full, snapshotHead: r.headOid, snapshotDate: r.snapshotDate });
    repos.push({ name: full, ...r });
  }
  // pseudonyms over the whole organisation, oldest first
  const ps = new Pseudonyms();
  const all = repos.flatMap((r) => r.commits).sort((a, b) => (a.committedDate < b.committedDate ? -1 : 1));
  for (const c of all) {
    ps.observe(c.author);
    ps.observe(c.committer);
    c.coAuthors.forEach((p) => ps.observe(p));
  }
  ps.finish();
  for (const c of all) {
    c.author = ps.map(c.author);
    c.committer = ps.map(c.committer);
    c.coAuthors = c.coAuthors.map((p) => ps.map(p));
  }
  const doc = {
    org: w.login,
    extractedFrom,
    repos: repos.map((r) => ({
      name: r.name,
      defaultBranch: r.defaultBranch,
      headOid: r.headOid,
      tipOid: r.tipOid,
      createdAt: r.createdAt,
      commits: r.commits,
      tags: r.tags,
    })),
  };
  const gz = gzipSync(JSON.stringify(doc), { level: 9 });
  writeFileSync(join(opt.out, `${key}.json.gz`), gz);
  const nc = repos.reduce((s, r) => s + r.commits.length, 0);
  console.log(
    `${w.login}: ${repos.length} repo(s), ${nc} commits, ${repos.reduce((s, r) => s + r.tags.length, 0)} tags, ` +
      `${ps.count} pseudonymised people, ${(gz.length / 1024).toFixed(0)} KiB; kept verbatim: ${[...ps.kept.keys()].join('; ') || '-'}`,
  );
}
if (degraded.length)
  console.error(`commits read in degraded mode (blobs missing from the snapshot):\n  ${degraded.join('\n  ')}`);
