/**
 * The agent module, loaded on first use. It is about a third of the CLI's code; commands that talk to
 * a real cluster (or to an agent of their own) should not pay for loading it at every start.
 */
export function loadAgent(): typeof import('./index') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./index') as typeof import('./index');
}
