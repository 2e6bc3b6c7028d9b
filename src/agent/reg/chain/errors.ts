/** A config entry graph that cannot be compiled (a 400 when it comes from a write). */
export class ChainError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChainError';
  }
}
