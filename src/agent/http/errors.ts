/**
 * Errors a route throws to answer with a status. Nomad and Consul answer errors as plain text; the
 * message names the field and the rule so a user can act on it.
 */
export class HttpError extends Error {
  /**
   * Set on the error of a read (a blocking query's 404): the index the data stood at, which the
   * answer carries in the service's Index header as Nomad's does.
   */
  index?: number;

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string): HttpError => new HttpError(400, message);
export const forbidden = (message = 'Permission denied'): HttpError => new HttpError(403, message);
export const notFound = (message: string): HttpError => new HttpError(404, message);
export const conflict = (message: string): HttpError => new HttpError(409, message);
export const methodNotAllowed = (method: string): HttpError =>
  new HttpError(405, `Invalid method: ${method}`);

/** 400 whose text says which field broke which rule. */
export function invalidField(field: string, rule: string): HttpError {
  return badRequest(`${field}: ${rule}`);
}
