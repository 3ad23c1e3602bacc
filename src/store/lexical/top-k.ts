/** A scored document of an index: which segment holds it, its position there and its row id. */
export interface RankedHit {
  segment: number;
  ordinal: number;
  rowId: number;
  score: number;
}

/**
 * The `size` best hits: a min-heap on score, then on reversed row id, so equal scores rank by
 * row id whatever order the hits are offered in.
 */
export class TopK<Entry extends RankedHit = RankedHit> {
  private readonly heap: Entry[] = [];
  constructor(readonly size: number) {}

  /** Whether a hit of this score could enter (a tie may, by its row id): lets the caller skip building the rest. */
  admits(score: number): boolean {
    return this.heap.length < this.size || score >= (this.heap[0] as Entry).score;
  }

  /**
   * The score a hit must reach to enter, −∞ while there is room. A hit scoring less never
   * enters, now or later (the threshold only rises); one scoring exactly this may, by its row id.
   */
  threshold(): number {
    return this.heap.length < this.size ? Number.NEGATIVE_INFINITY : (this.heap[0] as Entry).score;
  }

  offer(entry: Entry): void {
    if (this.heap.length < this.size) {
      this.heap.push(entry);
      this.up(this.heap.length - 1);
    } else if (this.worse(this.heap[0] as Entry, entry)) {
      this.heap[0] = entry;
      this.down(0);
    }
  }

  sorted(): Entry[] {
    return [...this.heap].sort((a, b) => b.score - a.score || a.rowId - b.rowId);
  }

  /** Whether a ranks below b. */
  private worse(a: Entry, b: Entry): boolean {
    return a.score < b.score || (a.score === b.score && a.rowId > b.rowId);
  }

  private up(index: number): void {
    const heap = this.heap;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.worse(heap[index] as Entry, heap[parent] as Entry)) break;
      [heap[index], heap[parent]] = [heap[parent] as Entry, heap[index] as Entry];
      index = parent;
    }
  }

  private down(index: number): void {
    const heap = this.heap;
    for (;;) {
      const left = index * 2 + 1;
      const right = left + 1;
      let smallest = index;
      if (left < heap.length && this.worse(heap[left] as Entry, heap[smallest] as Entry)) smallest = left;
      if (right < heap.length && this.worse(heap[right] as Entry, heap[smallest] as Entry)) smallest = right;
      if (smallest === index) return;
      [heap[index], heap[smallest]] = [heap[smallest] as Entry, heap[index] as Entry];
      index = smallest;
    }
  }
}
