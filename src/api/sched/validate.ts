/**
 * Client-side rules of the spec, checked before a request is sent so the caller learns which field
 * broke which rule instead of getting a server 400 (or, worse, a silently different result).
 */
import { RequestValidationError } from '../errors';

export const MAX_DISPATCH_PAYLOAD_BYTES = 16384;

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const HEX = /^[0-9a-f]*$/;
// Standard base64 as Go's encoding/json decodes []byte: padded, no whitespace.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A full identifier; the server refuses the 8-character short form. */
export function requireUuid(field: string, value: string): void {
  if (!UUID.test(value)) {
    throw new RequestValidationError(
      field,
      `must be a full UUID (36 characters), got ${JSON.stringify(value)}`,
    );
  }
}

/** The server decodes an ID prefix to bytes, so it must be an even number of lowercase hex digits. */
export function requireHexPrefix(field: string, value: string | undefined): void {
  if (value === undefined || value === '') return;
  if (!HEX.test(value)) {
    throw new RequestValidationError(field, 'must contain only hexadecimal characters 0-9a-f');
  }
  if (value.length % 2 !== 0) {
    throw new RequestValidationError(
      field,
      `must have an even number of hex characters, got ${value.length}`,
    );
  }
}

export function requireNonEmpty(field: string, value: string | null | undefined): asserts value is string {
  if (typeof value !== 'string' || value === '') {
    throw new RequestValidationError(field, 'must be a non-empty string');
  }
}

interface ListFilterOptions {
  filter?: string;
  perPage?: number;
}

/** `filter` cannot be combined with another filtering parameter; `per_page` is a positive integer. */
export function checkListOptions(opts: ListFilterOptions, other: Record<string, unknown> = {}): void {
  if (opts.filter) {
    for (const [name, value] of Object.entries(other)) {
      if (value !== undefined && value !== null && value !== '') {
        throw new RequestValidationError('filter', `cannot be combined with ${name}`);
      }
    }
  }
  if (opts.perPage !== undefined && (!Number.isInteger(opts.perPage) || opts.perPage <= 0)) {
    throw new RequestValidationError('per_page', `must be a positive integer, got ${opts.perPage}`);
  }
}

export function requireNonNegativeInt(field: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0) {
    throw new RequestValidationError(field, `must be a non-negative integer, got ${value}`);
  }
}

/** Returns the decoded size of a base64 payload, refusing text that is not base64. */
export function base64DecodedLength(field: string, value: string): number {
  if (!BASE64.test(value)) throw new RequestValidationError(field, 'must be standard padded base64');
  const padding = value.endsWith('==') ? 2 : value.endsWith('=') ? 1 : 0;
  return (value.length / 4) * 3 - padding;
}

export function requirePayloadSize(field: string, bytes: number): void {
  if (bytes > MAX_DISPATCH_PAYLOAD_BYTES) {
    throw new RequestValidationError(
      field,
      `must be at most ${MAX_DISPATCH_PAYLOAD_BYTES} bytes (decoded), got ${bytes}`,
    );
  }
}
