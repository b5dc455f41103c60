// Binary min-heap of (priority, id) pairs in typed arrays: no per-entry objects on hot paths.
// Ties on priority pop the smaller id first, so orderings are deterministic.

export class MinHeap {
  #priorities: Float64Array;
  #ids: Int32Array;
  #size = 0;

  constructor(capacity = 64) {
    const initial = Math.max(4, capacity);
    this.#priorities = new Float64Array(initial);
    this.#ids = new Int32Array(initial);
  }

  get size(): number {
    return this.#size;
  }

  /** Smallest priority, or +Infinity when empty. */
  peekPriority(): number {
    return this.#size > 0 ? this.#priorities[0]! : Number.POSITIVE_INFINITY;
  }

  /** Id of the smallest entry, or -1 when empty. */
  peekId(): number {
    return this.#size > 0 ? this.#ids[0]! : -1;
  }

  push(priority: number, id: number): void {
    if (this.#size === this.#priorities.length) this.#grow();
    this.#siftUp(this.#size++, priority, id);
  }

  /** Removes the smallest entry and returns its id (-1 when empty). */
  pop(): number {
    if (this.#size === 0) return -1;
    const top = this.#ids[0]!;
    const last = --this.#size;
    if (last > 0) this.#siftDown(0, this.#priorities[last]!, this.#ids[last]!);
    return top;
  }

  /** Replaces the smallest entry with a new one (cheaper than pop + push). */
  replaceTop(priority: number, id: number): void {
    if (this.#size === 0) {
      this.push(priority, id);
      return;
    }
    this.#siftDown(0, priority, id);
  }

  #less(p1: number, id1: number, p2: number, id2: number): boolean {
    return p1 < p2 || (p1 === p2 && id1 < id2);
  }

  #siftUp(index: number, priority: number, id: number): void {
    const priorities = this.#priorities;
    const ids = this.#ids;
    let i = index;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(priority, id, priorities[parent]!, ids[parent]!)) break;
      priorities[i] = priorities[parent]!;
      ids[i] = ids[parent]!;
      i = parent;
    }
    priorities[i] = priority;
    ids[i] = id;
  }

  #siftDown(index: number, priority: number, id: number): void {
    const priorities = this.#priorities;
    const ids = this.#ids;
    const size = this.#size;
    let i = index;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && this.#less(priorities[right]!, ids[right]!, priorities[child]!, ids[child]!)) child = right;
      if (!this.#less(priorities[child]!, ids[child]!, priority, id)) break;
      priorities[i] = priorities[child]!;
      ids[i] = ids[child]!;
      i = child;
    }
    priorities[i] = priority;
    ids[i] = id;
  }

  #grow(): void {
    const priorities = new Float64Array(this.#priorities.length * 2);
    priorities.set(this.#priorities);
    const ids = new Int32Array(this.#ids.length * 2);
    ids.set(this.#ids);
    this.#priorities = priorities;
    this.#ids = ids;
  }
}
