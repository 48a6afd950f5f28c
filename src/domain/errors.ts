/**
 * The service's errors, catalogued once. Every failure a service, a payment or a tool can report is a ServiceError
 * naming one entry here: a stable code (for code and logs), the HTTP status it answers with and that status's title.
 * Surfaces turn it into their own shape, each in one place: problem+json bodies (src/http/problem.ts), MCP `isError`
 * results and JSON-RPC errors (src/agents/mcp/errors.ts), A2A message metadata (src/agents/a2a/executor.ts).
 *
 * Titles are the HTTP reason phrases: a problem body's `title` depends on its status only (RFC 9457 `about:blank`).
 */
export interface CatalogueEntry {
  status: number;
  title: string;
}

const entry = (status: number, title: string): CatalogueEntry => ({ status, title });

const BAD_REQUEST = 'Bad Request';
const UNAUTHORIZED = 'Unauthorized';
const PAYMENT_REQUIRED = 'Payment Required';
const NOT_FOUND = 'Not Found';
const CONFLICT = 'Conflict';
const UNPROCESSABLE = 'Unprocessable Content';
const UNAVAILABLE = 'Service Unavailable';

export const SERVICE_ERRORS = {
  // One generic entry per status the service answers: what an error without a more precise name is.
  'bad-request': entry(400, BAD_REQUEST),
  unauthorized: entry(401, UNAUTHORIZED),
  'payment-required': entry(402, PAYMENT_REQUIRED),
  forbidden: entry(403, 'Forbidden'),
  'not-found': entry(404, NOT_FOUND),
  'method-not-allowed': entry(405, 'Method Not Allowed'),
  'not-acceptable': entry(406, 'Not Acceptable'),
  conflict: entry(409, CONFLICT),
  'content-too-large': entry(413, 'Content Too Large'),
  'uri-too-long': entry(414, 'URI Too Long'),
  'unsupported-media-type': entry(415, 'Unsupported Media Type'),
  unprocessable: entry(422, UNPROCESSABLE),
  'rate-limited': entry(429, 'Too Many Requests'),
  internal: entry(500, 'Internal Server Error'),
  'bad-gateway': entry(502, 'Bad Gateway'),
  unavailable: entry(503, UNAVAILABLE),

  // Named conditions.
  'invalid-arguments': entry(400, BAD_REQUEST),
  'invalid-username': entry(400, BAD_REQUEST),
  'malformed-payment': entry(400, BAD_REQUEST),
  'credentials-missing': entry(401, UNAUTHORIZED),
  'credentials-malformed': entry(401, UNAUTHORIZED),
  'credentials-invalid': entry(401, UNAUTHORIZED),
  'insufficient-credits': entry(402, PAYMENT_REQUIRED),
  'payment-not-confirmed': entry(402, PAYMENT_REQUIRED),
  'unknown-tool': entry(404, NOT_FOUND),
  'unknown-github-user': entry(404, NOT_FOUND),
  'already-redeemed': entry(409, CONFLICT),
  'request-in-progress': entry(409, CONFLICT),
  'idempotency-key-reused': entry(422, UNPROCESSABLE),
  'payment-rejected': entry(422, UNPROCESSABLE),
  'github-unavailable': entry(503, UNAVAILABLE),
  'payment-provider-unavailable': entry(503, UNAVAILABLE),
  'database-unavailable': entry(503, UNAVAILABLE),
} as const satisfies Record<string, CatalogueEntry>;

export type ServiceErrorCode = keyof typeof SERVICE_ERRORS;

/** One invalid input: where it was (`query.company`, `arguments.name`) and what was wrong. */
export interface FieldIssue {
  location: string;
  message: string;
}

export interface ServiceErrorOptions {
  /** Members a problem body carries beside the standard ones (e.g. `errors`, `candidates`, `markets`). */
  extensions?: Record<string, unknown>;
  /** When to try again, in seconds (HTTP sends it as Retry-After). */
  retryAfterSeconds?: number;
}

export class ServiceError extends Error {
  readonly status: number;
  readonly title: string;
  readonly extensions: Readonly<Record<string, unknown>>;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ServiceErrorCode,
    readonly detail?: string,
    options: ServiceErrorOptions = {},
  ) {
    super(detail ?? SERVICE_ERRORS[code].title);
    this.name = 'ServiceError';
    this.status = SERVICE_ERRORS[code].status;
    this.title = SERVICE_ERRORS[code].title;
    this.extensions = options.extensions ?? {};
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A value, or the service error that stands in its place. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ServiceError };

export const succeed = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = <T = never>(error: ServiceError): Outcome<T> => ({ ok: false, error });

const sameStatus = (a: ServiceErrorCode, b: ServiceErrorCode) => SERVICE_ERRORS[a].status === SERVICE_ERRORS[b].status;
const GENERIC_BY_STATUS = new Map<number, ServiceErrorCode>(
  (Object.keys(SERVICE_ERRORS) as ServiceErrorCode[])
    .filter((code, index, codes) => codes.findIndex((c) => sameStatus(c, code)) === index)
    .map((code) => [SERVICE_ERRORS[code].status, code]),
);

/**
 * The generic code of a status (the first catalogue entry with it), for errors known only by their status: a
 * remote deployment's problem response, an error Fastify raised. An uncatalogued status falls back to `bad-request`
 * (4xx) or `internal` (5xx).
 */
export function codeForStatus(status: number): ServiceErrorCode {
  return GENERIC_BY_STATUS.get(status) ?? (status >= 500 ? 'internal' : 'bad-request');
}

/** The title of a status (the catalogue's reason phrase; a generic one for an uncatalogued status). */
export function statusTitle(status: number): string {
  const code = GENERIC_BY_STATUS.get(status);
  return code ? SERVICE_ERRORS[code].title : status >= 500 ? 'Server Error' : 'Client Error';
}
