/**
 * Domain errors carry a stable `code`; the one HTTP error handler maps codes to statuses,
 * so services never know about HTTP.
 */
export type ErrorCode =
  | 'validation_failed'
  | 'not_found'
  | 'conflict'
  | 'unauthorized'
  | 'forbidden'
  | 'invalid_state'
  | 'too_many_attempts'
  | 'bad_gateway';

export interface FieldProblem {
  field: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly problems: FieldProblem[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const validationError = (field: string, message: string, more: FieldProblem[] = []) =>
  new DomainError('validation_failed', `${field}: ${message}`, [{ field, message }, ...more]);

/** One 400 naming every bad field: the detail lists them, `problems` carries them one by one. */
export const validationFailed = (problems: FieldProblem[]) =>
  new DomainError('validation_failed', problems.map((p) => `${p.field}: ${p.message}`).join('; '), problems);

export const notFound = (what: string, id: number | string) =>
  new DomainError('not_found', `${what} ${id} was not found`);

export const conflict = (field: string, message: string) =>
  new DomainError('conflict', `${field}: ${message}`, [{ field, message }]);

/** A system the platform calls on the caller's behalf failed; the message says which and how. */
export const badGateway = (message: string) => new DomainError('bad_gateway', message);
