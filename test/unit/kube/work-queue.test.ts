// The keyed work queue: a key queued many times runs once, never twice at once, runs again if queued while running,
// and is retried with backoff after an error.
import { expect } from 'chai';
import { WorkQueue } from '../../../src/kube/index.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('reconciler work queue', () => {
  it('runs a key queued three times while waiting once', async () => {
    const seen: string[] = [];
    const gate = deferred();
    const q = new WorkQueue({
      concurrency: 1,
      handler: async (k) => {
        seen.push(k);
        if (k === 'first') await gate.promise;
      },
    });
    q.add('first');
    q.add('b');
    q.add('b');
    q.add('b');
    gate.resolve();
    await q.idle();
    expect(seen).to.deep.equal(['first', 'b']);
  });

  it('never runs one key twice at once, and runs it again when queued meanwhile', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    const gates = [deferred(), deferred()];
    const q = new WorkQueue({
      concurrency: 8,
      handler: async () => {
        running++;
        most = Math.max(most, running);
        await gates[runs++]!.promise;
        running--;
      },
    });
    q.add('a');
    await Promise.resolve();
    q.add('a');
    q.add('a');
    gates[0]!.resolve();
    gates[1]!.resolve();
    await new Promise((r) => setTimeout(r, 20));
    await q.idle();
    expect(most).to.equal(1);
    expect(runs).to.equal(2);
  });

  it('runs keys queued high before those queued normal, each lane in order, a key in both lanes once', async () => {
    const seen: string[] = [];
    const gate = deferred();
    const q = new WorkQueue({
      concurrency: 1,
      handler: async (k) => {
        seen.push(k);
        if (k === 'first') await gate.promise;
      },
    });
    q.add('first');
    q.add('n1');
    q.add('h1', 'high');
    q.add('n2');
    q.add('n1', 'high');
    q.add('h2', 'high');
    q.add('h1');
    expect(q.length).to.equal(4);
    gate.resolve();
    await q.idle();
    expect(seen).to.deep.equal(['first', 'h1', 'n1', 'h2', 'n2']);
  });

  it('retries a failing key with backoff until it succeeds', async () => {
    let attempts = 0;
    const errors: number[] = [];
    const q = new WorkQueue({
      concurrency: 1,
      baseDelayMs: 5,
      handler: async () => {
        attempts++;
        if (attempts < 3) throw new Error('apiserver unavailable');
      },
      onError: (_k, _e, attempt) => errors.push(attempt),
    });
    q.add('a');
    const deadline = Date.now() + 2_000;
    while (attempts < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    expect(attempts).to.equal(3);
    expect(errors).to.deep.equal([1, 2]);
    await q.stop();
  });

  it('keeps first in, first out in a lane for a key promoted to high and queued normal again while it ran', async () => {
    const order: string[] = [];
    const gates = new Map<string, () => void>();
    const q = new WorkQueue({
      concurrency: 1,
      handler: (k) =>
        new Promise<void>((r) => {
          order.push(k);
          gates.set(k, r);
        }),
    });
    const release = async (k: string) => {
      gates.get(k)?.();
      gates.delete(k);
      await new Promise((r) => setImmediate(r));
    };
    q.add('X'); // runs, holding the only slot
    q.add('A');
    q.add('K');
    q.add('B'); // normal: A, K, B
    q.add('K', 'high'); // a transition: K leaves the normal lane for the high one
    await release('X'); // K runs
    q.add('K'); // queued again while it runs (the condition after its taint): behind B
    await release('K');
    for (const k of ['A', 'B', 'K']) await release(k);
    await q.idle();
    expect(order).to.deep.equal(['X', 'K', 'A', 'B', 'K']);
  });

  it('queues a key again when its handler asks ({ requeue }), behind the keys queued now, and later with { after }', async () => {
    const seen: string[] = [];
    let asked = 0;
    const q = new WorkQueue({
      concurrency: 1,
      handler: (k) => {
        seen.push(k);
        if (k === 'a' && asked++ === 0) return Promise.resolve({ requeue: true });
        if (k === 'later' && !seen.includes('later-again')) {
          seen.push('later-again');
          return Promise.resolve({ requeue: true, after: 30 });
        }
        return Promise.resolve();
      },
    });
    q.add('a');
    q.add('b');
    q.add('c');
    await q.idle();
    expect(seen).to.deep.equal(['a', 'b', 'c', 'a']);
    seen.length = 0;
    const started = performance.now();
    q.add('later');
    await q.idle();
    expect(seen).to.deep.equal(['later', 'later-again']);
    await new Promise((r) => setTimeout(r, 60));
    await q.idle();
    expect(seen).to.deep.equal(['later', 'later-again', 'later']);
    expect(performance.now() - started).to.be.at.least(30);
  });

  it('keeps the earliest of two delayed adds of a key, and forgets them with the key', async () => {
    const seen: string[] = [];
    const q = new WorkQueue({ concurrency: 1, handler: (k) => Promise.resolve(void seen.push(k)) });
    q.addAfter('k', 20);
    q.addAfter('k', 5_000);
    q.addAfter('gone', 20);
    q.forget('gone');
    await new Promise((r) => setTimeout(r, 60));
    await q.idle();
    expect(seen).to.deep.equal(['k']);
    await q.stop();
  });
});
