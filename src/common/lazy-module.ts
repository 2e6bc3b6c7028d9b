/**
 * A dependency loaded on first use. The command line starts for every plan and deploy, and a library
 * that only some runs need (RE2's WebAssembly, the PostgreSQL client, YAML, RSA) cost it tens of
 * milliseconds each at every start.
 */
export function lazyModule<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load());
}
