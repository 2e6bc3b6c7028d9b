/**
 * One parent AbortSignal shared by many concurrent operations, without piling listeners onto it.
 * Each operation that passes a signal down (to undici, deadlines, blocking-query waits) adds its own
 * abort listeners; hand them all the same parent and it collects one per operation per layer, and
 * Node warns (MaxListenersExceededWarning) once there are more than ten. The fan-out listens to the
 * parent once and gives each operation a child signal of its own to add listeners to.
 */
export class SignalFanout {
  private readonly children = new Set<AbortController>();
  private readonly onAbort = (): void => {
    for (const c of this.children) c.abort(this.parent?.reason);
    this.children.clear();
  };

  constructor(private readonly parent: AbortSignal | undefined) {
    parent?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** A signal that aborts with the parent; call release() when the operation is over. */
  child(): { signal: AbortSignal; release(): void } {
    const c = new AbortController();
    if (this.parent?.aborted) c.abort(this.parent.reason);
    else this.children.add(c);
    return { signal: c.signal, release: () => this.children.delete(c) };
  }

  /** Stops listening to the parent (the operations it served are over). */
  close(): void {
    this.parent?.removeEventListener('abort', this.onAbort);
    this.children.clear();
  }
}
