/**
 * The one error hierarchy. Domain code throws these; the error middleware maps them to HTTP.
 * `detail` is what the client sees; nothing else about the error is ever sent.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    /** Response headers the status calls for (e.g. `WWW-Authenticate` on a 401). */
    readonly headers?: Record<string, string>,
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

export class BadRequestError extends HttpError {
  constructor(detail: string) {
    super(400, detail);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(detail = "Missing or invalid API key") {
    super(401, detail);
  }
}
export class ForbiddenError extends HttpError {
  constructor(detail: string) {
    super(403, detail);
  }
}
export class NotFoundError extends HttpError {
  constructor(detail: string) {
    super(404, detail);
  }
}
export class ConflictError extends HttpError {
  constructor(detail: string) {
    super(409, detail);
  }
}
export class GoneError extends HttpError {
  constructor(detail: string) {
    super(410, detail);
  }
}

/** 429 with `Retry-After` (and the RateLimit fields the limiter adds): a caller over its budget; nothing was done. */
export class TooManyRequestsError extends HttpError {
  constructor(detail: string, retryAfterSeconds: number, headers: Record<string, string> = {}) {
    super(429, detail, { "Retry-After": String(retryAfterSeconds), ...headers });
  }
}

/** 503 with `Retry-After`: a dependency (database, queue) is unreachable for now; nothing was done. */
export class ServiceUnavailableError extends HttpError {
  constructor(detail: string, retryAfterSeconds = 2) {
    super(503, detail, { "Retry-After": String(retryAfterSeconds) });
  }
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** 422 with the validation body of the contract: `{detail: [{loc, msg, type}]}`. */
export class ValidationFailedError extends HttpError {
  constructor(readonly issues: ValidationIssue[]) {
    super(422, issues);
  }
}

/** Shorthand for a single domain-level validation failure at a body location. */
export function invalid(loc: (string | number)[], msg: string, type = "value_error"): ValidationFailedError {
  return new ValidationFailedError([{ loc, msg, type }]);
}
