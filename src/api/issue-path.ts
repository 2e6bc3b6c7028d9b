/**
 * How a zod issue names its field in messages. A module of its own so that validating a jobspec (as a
 * construct does at synth) does not load the HTTP transport.
 */

/** Turns a zod issue path into `TaskGroups[0].Tasks[1].Config` form. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
