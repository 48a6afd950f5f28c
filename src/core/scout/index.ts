import type { GitHubConfig, ScoutConfig } from '../../config.js';
import { GitHubClient } from '../../github/client.js';
import { GitHubUsername, type ScoutPredictions, type ScoutReceipts } from '../../schemas/scout.js';
import type { Snapshot } from '../../snapshot/snapshot.js';
import type { Store } from '../../store/database.js';
import { validatedCompanies } from './companies.js';
import { ScoutError, StarHistories } from './history.js';
import { predictFromStars } from './predict.js';
import { FORMULA_TEXT, personalitySummary, scoreStars } from './score.js';

export { ScoutError } from './history.js';

/** The configuration the scout reads: GitHub access, its own limits, and the base URL of the links it returns. */
export interface ScoutServiceConfig {
  github: GitHubConfig;
  scout: ScoutConfig;
  /** The service's base URL (the composition root's `urls.base`). */
  baseUrl: string;
}

/** A rate-limit wait longer than this fails the look-up (503 with Retry-After) instead of holding the request. */
const MAX_WAIT_SECONDS = 5;
const TOP_CALLS = 5;

export function scoutUrls(baseUrl: string, username: string) {
  const u = encodeURIComponent(username);
  return {
    receipts: `${baseUrl}/api/receipts/${u}`,
    card: `${baseUrl}/api/scout/card/${u}/svg`,
    badge: `${baseUrl}/api/badge/scout/${u}/svg`,
  };
}

/** Checks a username against GitHub's rule before anything reaches GitHub. */
export function checkedUsername(username: unknown): string {
  const parsed = GitHubUsername.safeParse(username);
  if (!parsed.success) {
    throw new ScoutError('invalid-username');
  }
  return parsed.data;
}

/** The Scout Score service: one per store, shared by the REST routes, the badges, the card and the agent tool. */
export class ScoutService {
  readonly client: GitHubClient;
  readonly histories: StarHistories;

  constructor(
    private readonly config: ScoutServiceConfig,
    store: Store,
    now?: () => number,
  ) {
    const { github } = config;
    this.client = new GitHubClient({
      token: github.token,
      apiUrl: github.apiUrl,
      concurrency: github.concurrency,
      queryIntervalMs: github.queryIntervalMs,
      retryBaseMs: github.retryBaseMs,
      maxWaitSeconds: MAX_WAIT_SECONDS,
      userAgent: 'signal-service-scout',
    });
    this.histories = new StarHistories(store.db, this.client, {
      ttlSeconds: config.scout.cacheTtlSeconds,
      maxPages: config.scout.maxStarPages,
      ...(now ? { now } : {}),
    });
  }

  async receipts(username: string): Promise<ScoutReceipts> {
    const login = checkedUsername(username);
    const history = await this.histories.get(login);
    const result = scoreStars(history.stars, validatedCompanies());
    const urls = scoutUrls(this.config.baseUrl, login);
    return {
      username: login,
      score: result.score,
      rank: result.rank,
      topEarlyCalls: result.calls.slice(0, TOP_CALLS),
      personality: personalitySummary(history.stars, result),
      cardUrl: urls.card,
      badgeUrl: urls.badge,
      stats: {
        earlyCalls: result.calls.length,
        lateStars: result.lateStars,
        points: result.points,
        starsAnalysed: history.stars.length,
        starsTruncated: history.truncated,
        validatedCompanies: validatedCompanies().companies.length,
      },
      formula: FORMULA_TEXT,
      fetchedAt: history.fetchedAt.toISOString(),
      computedAt: new Date().toISOString(),
    };
  }

  async predictions(username: string, snapshot: Snapshot, limit: number): Promise<ScoutPredictions> {
    const login = checkedUsername(username);
    const history = await this.histories.get(login);
    return {
      username: login,
      experimental: true,
      ...predictFromStars(history.stars, snapshot, limit),
      fetchedAt: history.fetchedAt.toISOString(),
    };
  }
}
