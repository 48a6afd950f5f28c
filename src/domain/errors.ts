/**
 * The service's errors, catalogued once. Every failure a service, a payment, a tool or the HTTP layer can report is
 * a ServiceError naming one entry of SERVICE_ERRORS: the stable code a client sees (MCP `_meta.error.code`, A2A
 * `error.code`), the HTTP status it answers with, that status's title, and the message template that writes its
 * `detail` from the values the throw site passes. A throw site names the entry and passes values only:
 *
 *     throw new ServiceError('unknown-tool', { name });
 *
 * and TypeScript checks that the values are the ones the entry's template takes. Surfaces turn a ServiceError into
 * their own shape, each in one place: problem+json bodies (src/http/problem.ts), MCP `isError` results and JSON-RPC
 * errors (src/agents/mcp/errors.ts), A2A message metadata (src/agents/a2a/executor.ts).
 *
 * Titles are the HTTP reason phrases: a problem body's `title` depends on its status only (RFC 9457 `about:blank`).
 */

const BAD_REQUEST = 'Bad Request';
const UNAUTHORIZED = 'Unauthorized';
const PAYMENT_REQUIRED = 'Payment Required';
const NOT_FOUND = 'Not Found';
const CONFLICT = 'Conflict';
const UNPROCESSABLE = 'Unprocessable Content';
const UNAVAILABLE = 'Service Unavailable';

const code = (status: number, title: string) => ({ status, title });

/**
 * The codes a client sees, each with its status and title. One generic code per status the service answers (what an
 * error without a more precise name is), then the named conditions. Codes are public and stable: several catalogue
 * entries may share one.
 */
export const ERROR_CODES = {
  'bad-request': code(400, BAD_REQUEST),
  unauthorized: code(401, UNAUTHORIZED),
  'payment-required': code(402, PAYMENT_REQUIRED),
  forbidden: code(403, 'Forbidden'),
  'not-found': code(404, NOT_FOUND),
  'method-not-allowed': code(405, 'Method Not Allowed'),
  'not-acceptable': code(406, 'Not Acceptable'),
  conflict: code(409, CONFLICT),
  'content-too-large': code(413, 'Content Too Large'),
  'uri-too-long': code(414, 'URI Too Long'),
  'unsupported-media-type': code(415, 'Unsupported Media Type'),
  unprocessable: code(422, UNPROCESSABLE),
  'rate-limited': code(429, 'Too Many Requests'),
  internal: code(500, 'Internal Server Error'),
  'bad-gateway': code(502, 'Bad Gateway'),
  unavailable: code(503, UNAVAILABLE),

  'invalid-arguments': code(400, BAD_REQUEST),
  'invalid-username': code(400, BAD_REQUEST),
  'malformed-payment': code(400, BAD_REQUEST),
  'credentials-missing': code(401, UNAUTHORIZED),
  'credentials-malformed': code(401, UNAUTHORIZED),
  'credentials-invalid': code(401, UNAUTHORIZED),
  'insufficient-credits': code(402, PAYMENT_REQUIRED),
  'payment-not-confirmed': code(402, PAYMENT_REQUIRED),
  'unknown-tool': code(404, NOT_FOUND),
  'unknown-github-user': code(404, NOT_FOUND),
  'already-redeemed': code(409, CONFLICT),
  'request-in-progress': code(409, CONFLICT),
  'idempotency-key-reused': code(422, UNPROCESSABLE),
  'payment-rejected': code(422, UNPROCESSABLE),
  'github-unavailable': code(503, UNAVAILABLE),
  'payment-provider-unavailable': code(503, UNAVAILABLE),
  'database-unavailable': code(503, UNAVAILABLE),
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One invalid input: where it was (`query.company`, `arguments.name`) and what was wrong. */
export interface FieldIssue {
  location: string;
  message: string;
}

/** One catalogue entry: its public code, that code's status and title, and the template of its `detail`. */
export interface CatalogueEntry<V = never> {
  code: ErrorCode;
  status: number;
  title: string;
  message: (values: V) => string;
}

const entry = <V = void>(errorCode: ErrorCode, message: (values: V) => string): CatalogueEntry<V> => ({
  code: errorCode,
  status: ERROR_CODES[errorCode].status,
  title: ERROR_CODES[errorCode].title,
  message,
});

/** A user string quoted as JSON and cut to `max` characters, so a message never echoes a long input. */
const quoted = (text: string, max: number) => JSON.stringify(text.slice(0, max));
/** Field issues as one sentence: `location: message; location: message`. */
const issues = (errors: readonly FieldIssue[]) => errors.map((e) => `${e.location}: ${e.message}`).join('; ');

/** The rule an Idempotency-Key follows (its schema's message and the error's). */
export const IDEMPOTENCY_KEY_RULE = 'must be 1 to 255 visible ASCII characters';
/** Why a request without a credit-pack key is refused. */
export const KEY_REQUIRED = 'A credit-pack key is required: send Authorization: Bearer <key>.';
/** Why a request with a credit-pack key that opens no account is refused. */
export const KEY_NOT_VALID = 'The credit-pack key is not valid (unknown, malformed or revoked).';

/**
 * Every error the service reports. Most messages are fixed or written from the values; a few take the varying part
 * as a value because another module writes it: `reason` (an exception's message, a payment verifier's verdict, a
 * payload decoder's complaint) and `sentence` (an answer or a tracked-startup check written by its core service).
 */
export const SERVICE_ERRORS = {
  // The period.
  'no-period-published': entry(
    'unavailable',
    () => 'No period has been published yet. Run `signal-service pipeline run` or enable DEMO_DATA.',
  ),
  'no-period-loaded': entry('unavailable', () => 'No period is loaded yet.'),
  'period-not-stored': entry('not-found', ({ slug, stored }: { slug: string; stored: readonly string[] }) => {
    const range = stored.length ? `, from ${stored[0]} to ${stored.at(-1)}` : '';
    return `No stored period ${quoted(slug, 20)}: ${stored.length} periods are stored${range} (list_periods names them).`;
  }),
  'feed-store-silent': entry('unavailable', () => 'The feed cannot be built right now: the store did not answer.'),
  'page-store-silent': entry('unavailable', () => 'This page cannot be rendered right now: the store did not answer.'),
  'markets-store-silent': entry('unavailable', () => 'Markets cannot be computed right now: the store did not answer.'),
  'ledger-store-silent': entry(
    'unavailable',
    () => 'The members ledger cannot be graded right now: the store did not answer.',
  ),
  'dependency-unreachable': entry(
    'unavailable',
    ({ reason }: { reason: string }) => `A dependency is not reachable: ${reason.slice(0, 200)}`,
  ),
  'database-unavailable': entry(
    'database-unavailable',
    () => 'The database is not answering; this route needs it. Free reads keep working.',
  ),

  // Reads.
  'unknown-market': entry('not-found', () => 'Unknown market. `markets` lists the available ones.'),
  'unknown-citation-format': entry(
    'not-found',
    ({ formats }: { formats: readonly string[] }) => `Unknown citation format. Formats: ${formats.join(', ')}.`,
  ),
  'unknown-citation-slug': entry(
    'not-found',
    () => 'Unknown citation slug. See `slugs` for the sources that can be cited.',
  ),
  'no-answer': entry('not-found', ({ sentence }: { sentence: string }) => sentence),
  'nlweb-query-length': entry('bad-request', () => 'NLWeb /ask: query must be 1 to 280 characters.'),

  // Tools, function calling, MCP and A2A.
  'unknown-tool': entry('unknown-tool', ({ name }: { name: string }) => `No tool named ${quoted(name, 100)}.`),
  'invalid-tool-arguments': entry(
    'invalid-arguments',
    ({ tool, errors }: { tool: string; errors: readonly FieldIssue[] }) =>
      `Invalid arguments for ${tool}: ${issues(errors)}`,
  ),
  'tool-call-not-object': entry('bad-request', () => 'The body must be one tool call as a JSON object.'),
  'tool-call-shape': entry(
    'bad-request',
    ({ shape, description, errors }: { shape: string; description: string; errors: readonly FieldIssue[] }) =>
      `Not a tool call of the ${shape} shape (${description}): ${issues(errors)}`,
  ),
  'arguments-not-json': entry('bad-request', () => 'arguments is a string but not valid JSON.'),
  'invalid-argument': entry(
    'invalid-arguments',
    ({ location, message }: FieldIssue) => `Invalid arguments: ${location}: ${message}`,
  ),
  'invalid-skill-arguments': entry(
    'invalid-arguments',
    ({ skill, errors }: { skill: string; errors: readonly FieldIssue[] }) =>
      `Invalid arguments for skill ${skill}: ${issues(errors)}`,
  ),
  'unknown-skill': entry(
    'invalid-arguments',
    ({ skill, known }: { skill: string; known: readonly string[] }) =>
      `Unknown skill ${quoted(skill, 64)}: use one of ${known.join(', ')}.`,
  ),
  'empty-message': entry(
    'invalid-arguments',
    () => 'Send a text part with a question, or a data part {"skill": …, "arguments": {…}}.',
  ),
  'mcp-stateless': entry('method-not-allowed', () => 'This MCP endpoint is stateless: POST JSON-RPC messages to it.'),
  'mcp-data-unavailable': entry(
    'unavailable',
    ({ reason }: { reason: string }) => `signal-mcp could not open its data: ${reason}`,
  ),
  'remote-unreachable': entry(
    'bad-gateway',
    ({ baseUrl, reason }: { baseUrl: string; reason: string }) => `Could not reach ${baseUrl}: ${reason}`,
  ),
  'remote-not-json': entry(
    'bad-gateway',
    ({ baseUrl }: { baseUrl: string }) => `${baseUrl} answered something other than a JSON object.`,
  ),

  // Credit-pack keys and paid calls.
  'credentials-missing': entry('credentials-missing', () => KEY_REQUIRED),
  'signal-mcp-key-missing': entry(
    'credentials-missing',
    () => 'A credit-pack key is required: set SIGNAL_API_KEY for signal-mcp.',
  ),
  'credentials-malformed': entry('credentials-malformed', () => KEY_NOT_VALID),
  'credentials-invalid': entry('credentials-invalid', () => KEY_NOT_VALID),
  'insufficient-credits': entry(
    'insufficient-credits',
    () => 'No credit left on this key. Buy a credit pack; a miss (an untracked startup) is never charged.',
  ),
  'idempotency-key-invalid': entry(
    'bad-request',
    ({ where }: { where: string }) => `${where} ${IDEMPOTENCY_KEY_RULE}.`,
  ),
  'idempotency-key-reused': entry(
    'idempotency-key-reused',
    () => 'This Idempotency-Key was already used with a different request body.',
  ),
  'request-in-progress': entry(
    'request-in-progress',
    () => 'A request with this Idempotency-Key is still being processed; retry shortly.',
  ),

  // Card checkout.
  'checkout-not-configured': entry(
    'unavailable',
    () =>
      'Card checkout is not configured on this server (STRIPE_SECRET_KEY, STRIPE_PRICE_ID and STRIPE_WEBHOOK_SECRET).',
  ),
  'body-not-json': entry('bad-request', () => 'The body is not valid JSON.'),
  'checkout-provider-silent': entry('bad-gateway', () => 'The payment provider did not answer; try again in a moment.'),
  'not-a-checkout-session': entry('bad-request', () => 'session_id is not a Checkout Session id.'),
  'webhook-event-not-raw': entry('bad-request', () => 'Expected the raw JSON event.'),
  'stripe-signature-invalid': entry('bad-request', () => 'The Stripe signature does not verify.'),

  // x402.
  'x402-not-configured': entry(
    'unavailable',
    () => 'x402 payments are not configured on this server (X402_PAY_TO is unset).',
  ),
  'x402-takes-no-key': entry('unauthorized', () => 'x402 calls take no key.'),
  'payment-header-malformed': entry('malformed-payment', ({ reason }: { reason: string }) => reason),
  'payment-headers-both': entry(
    'malformed-payment',
    () => 'Send one payment header: PAYMENT-SIGNATURE (x402 v2) or X-PAYMENT (x402 v1), not both.',
  ),
  'settlement-unconfirmed': entry(
    'payment-provider-unavailable',
    () =>
      'The settlement was not confirmed. Retry with the same payment header and body: it is settled at most once, and its answer is given once it is.',
  ),
  'authorization-in-flight': entry(
    'payment-provider-unavailable',
    () =>
      'This payment authorization is being settled by another request. Retry shortly with the same payment header: it is settled at most once, and its answer is given once it is.',
  ),
  'facilitator-unreachable': entry(
    'payment-provider-unavailable',
    () => 'The payment facilitator cannot be reached; nothing was charged. Retry later with the same payment.',
  ),

  // Solana.
  'solana-not-configured': entry(
    'unavailable',
    () => 'Solana payments are not configured on this server (SOLANA_PAY_TO is unset).',
  ),
  'not-a-transaction-signature': entry(
    'bad-request',
    () => 'signature must be a base58 transaction signature (64 bytes, 87 or 88 characters).',
  ),
  'already-redeemed': entry('already-redeemed', () => 'This transaction signature has already been redeemed.'),
  'solana-rpc-unreachable': entry(
    'payment-provider-unavailable',
    () => 'The Solana RPC node cannot be reached; nothing was redeemed. Retry later.',
  ),
  'transfer-not-confirmed': entry('payment-not-confirmed', ({ reason }: { reason: string }) => reason),
  'transfer-rejected': entry('payment-rejected', ({ reason }: { reason: string }) => reason),
  'memo-for-another-account': entry(
    'payment-rejected',
    () => 'The payment memo binds it to another account; only that account’s key can redeem it.',
  ),

  // Alerts.
  'alerts-off': entry('unavailable', () => 'Alerts are off on this server: its operator has not set ALERTS_SECRET.'),
  'alerts-no-period': entry('unavailable', () => 'No period is loaded yet, so the tracked startups are not known.'),
  'alert-subscription-not-found': entry(
    'not-found',
    ({ id }: { id: string }) => `No alert subscription ${quoted(id, 60)} for this key.`,
  ),
  'alert-feed-not-found': entry(
    'not-found',
    () => 'No alert feed at this address (unknown subscription or wrong token).',
  ),
  'unsubscribe-link-invalid': entry(
    'not-found',
    () => 'This unsubscribe link is not valid (or the subscription was deleted).',
  ),
  'untracked-startup': entry('unprocessable', ({ sentence }: { sentence: string }) => `watch.startups: ${sentence}`),
  'webhook-credentials': entry('unprocessable', () => 'A webhook URL must not carry a user name or password.'),
  'webhook-address-refused': entry(
    'unprocessable',
    ({ reason }: { reason: string }) =>
      `The webhook URL is refused: ${reason}; webhooks are delivered only to public addresses.`,
  ),
  'webhook-host-unresolved': entry(
    'unprocessable',
    ({ host, reason }: { host: string; reason: string }) =>
      `The webhook URL is refused: ${host} does not resolve (${reason.slice(0, 200)}).`,
  ),
  'watches-nothing': entry(
    'invalid-arguments',
    () =>
      'The subscription watches nothing: give watch.startups, watch.sectors, watch.signalTypes or watch.trendingTop20.',
  ),
  'mail-off': entry(
    'unprocessable',
    () => 'This server sends no e-mail (no SMTP server is configured): use a webhook or the Atom feed.',
  ),
  'too-many-subscriptions': entry(
    'conflict',
    ({ max }: { max: number }) => `A key's account holds at most ${max} subscriptions; delete one first.`,
  ),

  // The Scout Score.
  'invalid-username': entry(
    'invalid-username',
    () =>
      'username must be 1–39 characters: letters, digits and single hyphens between them, starting with a letter or digit.',
  ),
  'unknown-github-user': entry(
    'unknown-github-user',
    ({ username }: { username: string }) => `GitHub has no user named ${username}.`,
  ),
  'github-recently-unreachable': entry(
    'github-unavailable',
    ({ memorySeconds, retryInSeconds }: { memorySeconds: number; retryInSeconds: number }) =>
      `GitHub could not be reached by the last look-up, less than ${memorySeconds} seconds ago; try again in ${retryInSeconds} seconds.`,
  ),
  'github-token-rejected': entry(
    'github-unavailable',
    () => 'GitHub rejected the configured token; the Scout Score cannot read stars until it is fixed.',
  ),
  'github-unavailable': entry(
    'github-unavailable',
    () => 'GitHub cannot be reached or its rate limit is spent; try again later.',
  ),
  'github-budget-spent': entry(
    'github-unavailable',
    () => 'The GitHub request budget is spent (without a token GitHub allows 60 requests an hour); try again later.',
  ),

  // The HTTP layer.
  'metrics-token-required': entry('unauthorized', () => 'GET /metrics needs the metrics bearer token.'),
  'rate-limit-exceeded': entry(
    'rate-limited',
    ({ budget, retryAfterSeconds }: { budget: string; retryAfterSeconds: number }) =>
      `Rate limit exceeded for this client (${budget} routes). Retry after ${retryAfterSeconds} s, or use the feed or a local copy of the dataset for heavy use.`,
  ),
  'too-many-connections': entry(
    'rate-limited',
    () => 'Too many open connections from this address; close some, or reuse them (keep-alive).',
  ),
  'path-segment-too-long': entry('uri-too-long', () => 'A path segment is too long.'),
  'malformed-url': entry('bad-request', () => 'The URL is malformed.'),
  'invalid-request': entry(
    'bad-request',
    ({ errors, part }: { errors: readonly FieldIssue[]; part: string | undefined }) =>
      errors.length ? issues(errors) : `${part ?? 'request'} is invalid`,
  ),
  'wrong-method': entry(
    'method-not-allowed',
    ({ path, allow }: { path: string; allow: string }) => `${path} answers ${allow}.`,
  ),
  'no-route': entry(
    'not-found',
    ({ method, path }: { method: string; path: string }) => `No resource at ${method} ${path}.`,
  ),
  unexpected: entry('internal', () => 'An unexpected error occurred.'),
} as const;

export type ServiceErrorId = keyof typeof SERVICE_ERRORS;

/** The values an entry's message template takes (`void` when it takes none). */
export type ServiceErrorValues<I extends ServiceErrorId> = Parameters<(typeof SERVICE_ERRORS)[I]['message']>[0];

export interface ServiceErrorOptions {
  /** Members a problem body carries beside the standard ones (e.g. `errors`, `candidates`, `markets`). */
  extensions?: Record<string, unknown>;
  /** When to try again, in seconds (HTTP sends it as Retry-After). */
  retryAfterSeconds?: number;
  /** The methods a wrong-method error's resource answers (HTTP sends it as Allow). */
  allow?: string;
}

/** What follows the entry's id: its values (optional when it takes none), then the options. */
export type ServiceErrorArgs<I extends ServiceErrorId> = [ServiceErrorValues<I>] extends [void]
  ? [values?: Record<string, never>, options?: ServiceErrorOptions]
  : [values: ServiceErrorValues<I>, options?: ServiceErrorOptions];

/** What a relayed error is made of: a code and a text written outside this catalogue. */
interface Relayed {
  code: ErrorCode;
  detail: string | undefined;
  id: ServiceErrorId | undefined;
}
const RELAYED: unique symbol = Symbol('relayed');

export class ServiceError<I extends ServiceErrorId = ServiceErrorId> extends Error {
  /** The catalogue entry; undefined for a relayed error (see `relay`). */
  readonly id: ServiceErrorId | undefined;
  readonly code: ErrorCode;
  readonly status: number;
  readonly title: string;
  readonly detail: string | undefined;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;
  readonly allow: string | undefined;

  constructor(id: I, ...args: ServiceErrorArgs<I>) {
    const [values, options = {}] = args as [unknown, ServiceErrorOptions | undefined];
    const made: Relayed =
      (id as unknown) === RELAYED
        ? (values as Relayed)
        : {
            id,
            code: SERVICE_ERRORS[id].code,
            detail: (SERVICE_ERRORS[id].message as (values: unknown) => string)(values),
          };
    super(made.detail ?? ERROR_CODES[made.code].title);
    this.name = 'ServiceError';
    this.id = made.id;
    this.code = made.code;
    this.status = ERROR_CODES[made.code].status;
    this.title = ERROR_CODES[made.code].title;
    this.detail = made.detail;
    this.extensions = options.extensions ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
    this.allow = options.allow;
  }

  /**
   * An error whose text was written outside this catalogue, kept as it came: a remote deployment's problem, an
   * answer recorded earlier and replayed, a client error Fastify raised. Everything else names an entry.
   */
  static relay(errorCode: ErrorCode, detail: string | undefined, options: ServiceErrorOptions = {}): ServiceError {
    return ServiceError.made({ code: errorCode, detail, id: undefined }, options);
  }

  /** A remote deployment's problem response (its status, and its detail when it gave one), relayed. */
  static remote(
    { status, baseUrl, detail }: { status: number; baseUrl: string; detail: unknown },
    options: ServiceErrorOptions = {},
  ): ServiceError {
    const text = typeof detail === 'string' ? detail : `${baseUrl} answered ${status}.`;
    return ServiceError.relay(codeForStatus(status), text, options);
  }

  /** The same error with more extension members (and the same retry time and allowed methods). */
  withExtensions(extensions: Record<string, unknown>): ServiceError {
    return ServiceError.made(
      { code: this.code, detail: this.detail, id: this.id },
      {
        extensions: { ...this.extensions, ...extensions },
        ...(this.retryAfterSeconds !== undefined ? { retryAfterSeconds: this.retryAfterSeconds } : {}),
        ...(this.allow !== undefined ? { allow: this.allow } : {}),
      },
    );
  }

  private static made(made: Relayed, options: ServiceErrorOptions): ServiceError {
    const Made = ServiceError as unknown as new (
      id: symbol,
      made: Relayed,
      options: ServiceErrorOptions,
    ) => ServiceError;
    return new Made(RELAYED, made, options);
  }
}

/** A value, or the service error that stands in its place. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export const succeed = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = <T = never>(error: ServiceError): Outcome<T> => ({ ok: false, error });

const sameStatus = (a: ErrorCode, b: ErrorCode) => ERROR_CODES[a].status === ERROR_CODES[b].status;
const GENERIC_BY_STATUS = new Map<number, ErrorCode>(
  (Object.keys(ERROR_CODES) as ErrorCode[])
    .filter((c, index, codes) => codes.findIndex((other) => sameStatus(other, c)) === index)
    .map((c) => [ERROR_CODES[c].status, c]),
);

/**
 * The generic code of a status (the first code with it), for errors known only by their status: a remote
 * deployment's problem response, an error Fastify raised. An uncatalogued status falls back to `bad-request` (4xx)
 * or `internal` (5xx).
 */
export function codeForStatus(status: number): ErrorCode {
  return GENERIC_BY_STATUS.get(status) ?? (status >= 500 ? 'internal' : 'bad-request');
}

/** The title of a status (the catalogue's reason phrase; a generic one for an uncatalogued status). */
export function statusTitle(status: number): string {
  const c = GENERIC_BY_STATUS.get(status);
  return c ? ERROR_CODES[c].title : status >= 500 ? 'Server Error' : 'Client Error';
}
