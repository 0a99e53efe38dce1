// A FIFO async lock: one transaction at a time on a single connection.

export class Mutex {
  #locked = false;
  readonly #waiters: Array<() => void> = [];

  get locked(): boolean {
    return this.#locked;
  }

  async acquire(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return;
    }
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    const next = this.#waiters.shift();
    if (next) next();
    else this.#locked = false;
  }
}
