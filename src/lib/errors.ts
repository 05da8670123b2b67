// Every failure a client can see is one of these: a stable `code`, an HTTP status, a message and optional
// extra fields, written by the one error handler as {result: "error", msg, code, ...extra}.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string = 'BAD_REQUEST',
    readonly status: number = 400,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export class UserDeactivatedError extends ApiError {
  constructor() {
    super('Account is deactivated', 'USER_DEACTIVATED', 401, {}, { 'WWW-Authenticate': 'Basic realm="zulip"' });
  }
}

export class MissingArgumentError extends ApiError {
  constructor(name: string) {
    super(`Missing '${name}' argument`, 'REQUEST_VARIABLE_MISSING', 400, { var_name: name });
  }
}

export class InvalidArgumentError extends ApiError {
  constructor(name: string, message: string) {
    super(message, 'BAD_REQUEST', 400, { var_name: name });
  }
}

export class InvalidJsonError extends ApiError {
  constructor(name: string) {
    super(`${name} is not valid JSON`, 'INVALID_JSON', 400, { var_name: name });
  }
}

export class ConfusingArgumentError extends ApiError {
  constructor(a: string, b: string) {
    super(`Can't decide between '${a}' and '${b}' arguments`, 'REQUEST_CONFUSING_VAR', 400, {
      var_name1: a,
      var_name2: b,
    });
  }
}

const BASIC_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="zulip"' };

export class UnauthorizedError extends ApiError {
  constructor(message = 'Not logged in: API authentication or user session required') {
    super(message, 'UNAUTHORIZED', 401, {}, BASIC_CHALLENGE);
  }
}

export class AuthenticationFailedError extends ApiError {
  constructor(code = 'AUTHENTICATION_FAILED', message = 'Your username or password is incorrect') {
    super(message, code, 401);
  }
}

export class AccessDeniedError extends ApiError {
  constructor(message = 'Access denied') {
    super(message, 'BAD_REQUEST', 403);
  }
}

export class NotFoundError extends ApiError {
  constructor(message = 'Not Found') {
    super(message, 'BAD_REQUEST', 404);
  }
}

export class RateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number, message = 'API usage exceeded rate limit; see https://zulip.com/api/http-headers#rate-limiting-response-headers') {
    super(
      message,
      'RATE_LIMIT_HIT',
      429,
      { 'retry-after': retryAfterSeconds },
      { 'Retry-After': String(Math.ceil(retryAfterSeconds)) },
    );
  }
}
