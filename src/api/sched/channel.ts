/**
 * A single-consumer queue exposed as an AsyncIterable: the producer pushes as data arrives, the
 * consumer pulls at its own pace. Data pushed before anyone iterates is kept.
 */
export class Channel<T> implements AsyncIterable<T> {
  private readonly queue: T[] = [];
  private waiter: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | undefined;
  private ended = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.ended) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: item, done: false });
    } else {
      this.queue.push(item);
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.resolve({ value: undefined, done: true });
    }
  }

  /** Ends the channel with an error that the consumer sees after the data already queued. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failure = { error };
    this.ended = true;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w.reject(error);
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: (): Promise<IteratorResult<T>> => {
        if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiter = { resolve, reject };
        });
      },
      return: (): Promise<IteratorResult<T>> => {
        this.queue.length = 0;
        this.end();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
