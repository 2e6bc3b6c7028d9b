/**
 * Typed errors of the api layer. Callers branch on the class, never on message text.
 * No error ever carries a token: paths are stripped of token parameters and messages are redacted
 * by the transport before an error is built.
 */
export interface ApiErrorInit {
  status: number;
  method: string;
  path: string;
  serverMessage: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serverMessage: string;

  constructor(init: ApiErrorInit, kind = 'request failed') {
    const detail = init.serverMessage ? `: ${init.serverMessage}` : '';
    super(`${init.method} ${init.path} ${kind} (HTTP ${init.status})${detail}`);
    this.name = new.target.name;
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage;
  }
}

/** 400: the request may succeed if a parameter is changed. */
export class ValidationError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'was rejected as invalid');
  }
}

/** 401/403: the token does not allow the operation (or is missing). */
export class PermissionDeniedError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'was denied');
  }
}

/** 404: unknown resource. */
export class NotFoundError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'found nothing');
  }
}

/** 409, or a check-and-set failure that a server reports with another status (Nomad answers CAS failures with 500). */
export class ConflictError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'conflicted with the current state');
  }
}

/** 5xx and 429: the server failed or is overloaded. */
export class ServerError extends ApiError {
  constructor(init: ApiErrorInit) {
    super(init, 'failed on the server');
  }
}

/** The server could not be reached, or the connection broke before a response arrived. */
export class ConnectionError extends Error {
  readonly method: string;
  readonly path: string;
  readonly code: string | undefined;
  constructor(method: string, path: string, reason: string, code?: string) {
    super(`${method} ${path}: cannot reach the server: ${reason}`);
    this.name = 'ConnectionError';
    this.method = method;
    this.path = path;
    this.code = code;
  }
}

/** The request took longer than the client allows. */
export class RequestTimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path}: no response within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
  }
}

/** The response arrived but does not match the schema; names the first offending field. */
export class ResponseSchemaError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly field: string,
    readonly rule: string,
  ) {
    super(`${method} ${path}: unexpected response: field ${field || '(root)'}: ${rule}`);
    this.name = 'ResponseSchemaError';
  }
}

/**
 * The server answers in another dialect than the client's flavor (a real Nomad behind a client in the
 * neutral flavor, say): without this, blocking queries would never see an index and time out.
 */
export class DialectMismatchError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly expectedPrefix: string,
    readonly foundPrefix: string,
  ) {
    super(
      `${method} ${path}: the server answers with ${foundPrefix}* headers, not ${expectedPrefix}*: ` +
        `set the provider's flavor to match the cluster (${foundPrefix === 'X-Nomad-' ? '"nomad"' : foundPrefix === 'X-Consul-' ? '"consul"' : '"sched"'})`,
    );
    this.name = 'DialectMismatchError';
  }
}

/** A rule of the spec was broken by the caller; raised before any request is made. */
export class RequestValidationError extends Error {
  constructor(
    readonly field: string,
    readonly rule: string,
  ) {
    super(`invalid ${field}: ${rule}`);
    this.name = 'RequestValidationError';
  }
}

const CAS_PATTERN =
  /enforcing job modify index|conflicting job modify index|check-and-set|cas mismatch|changed since/i;

export function errorForStatus(init: ApiErrorInit): ApiError {
  const { status } = init;
  if (status === 400) return new ValidationError(init);
  if (status === 401 || status === 403) return new PermissionDeniedError(init);
  if (status === 404) return new NotFoundError(init);
  if (status === 409 || (status >= 500 && CAS_PATTERN.test(init.serverMessage)))
    return new ConflictError(init);
  if (status === 429 || status >= 500) return new ServerError(init);
  return new ApiError(init);
}
