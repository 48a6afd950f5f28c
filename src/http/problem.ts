/**
 * Errors are values: an HttpProblem carries the status and the reason, and the one error handler turns it into an
 * RFC 9457 `application/problem+json` response.
 */
export interface ProblemField {
  location: string;
  message: string;
}

export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail?: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail ?? title);
    this.name = 'HttpProblem';
  }
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? 'Server Error' : 'Client Error');
}

export function problemBody(
  status: number,
  title: string,
  detail: string | undefined,
  instance: string | undefined,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'about:blank',
    title,
    status,
    ...(detail ? { detail } : {}),
    ...(instance ? { instance } : {}),
    ...extra,
  };
}

export const notFound = (detail: string, extra: Record<string, unknown> = {}) =>
  new HttpProblem(404, statusTitle(404), detail, extra);
export const unavailable = (detail: string, retryAfterSeconds = 30) =>
  new HttpProblem(503, statusTitle(503), detail, {}, { 'retry-after': String(retryAfterSeconds) });
