// Small measurement helpers for the bench: percentiles of a bounded sample and human-readable sizes.

/** Keeps at most `capacity` values; beyond that, a uniform reservoir sample. */
export class Reservoir {
  private readonly values: Float64Array;
  private seen = 0;

  constructor(private readonly capacity: number) {
    this.values = new Float64Array(capacity);
  }

  add(v: number): void {
    if (this.seen < this.capacity) this.values[this.seen] = v;
    else {
      const j = Math.floor(Math.random() * (this.seen + 1));
      if (j < this.capacity) this.values[j] = v;
    }
    this.seen++;
  }

  get count(): number {
    return this.seen;
  }

  percentile(p: number): number {
    const n = Math.min(this.seen, this.capacity);
    if (n === 0) return NaN;
    const sorted = this.values.slice(0, n).sort();
    return sorted[Math.min(n - 1, Math.floor((p / 100) * n))] ?? NaN;
  }

  max(): number {
    const n = Math.min(this.seen, this.capacity);
    let m = -Infinity;
    for (let i = 0; i < n; i++) m = Math.max(m, this.values[i] ?? -Infinity);
    return m;
  }
}

export const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
