/** JSON objects as the dialect table and the job comparison walk them. */
export type JsonRecord = Record<string, unknown>;

/** A JSON object: not null, not an array. */
export function isJsonRecord(v: unknown): v is JsonRecord {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The objects of a list field (a job's `TaskGroups`, a group's `Tasks`); anything else is none. */
export function jsonRecords(v: unknown): JsonRecord[] {
  return Array.isArray(v) ? v.filter(isJsonRecord) : [];
}
