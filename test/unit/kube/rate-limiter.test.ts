// The client-side rate limit: a token bucket whose waiters are served by priority, then in arrival order, so that a
// write carrying a verdict (the taint) is never queued behind reads or Events. Order only; no timing is asserted.
import { expect } from 'chai';
import { RateLimiter } from '../../../src/kube/index.js';

describe('reconciler rate limiter', () => {
  it('serves a waiting high-priority request before every waiting normal one, each priority in order', async () => {
    const limiter = new RateLimiter(1000, 1);
    await limiter.take(); // the bucket is empty now
    const order: string[] = [];
    const waits = [
      limiter.take('normal').then(() => order.push('normal-1')),
      limiter.take('normal').then(() => order.push('normal-2')),
      limiter.take('high').then(() => order.push('high-1')),
      limiter.take().then(() => order.push('normal-3')),
      limiter.take('high').then(() => order.push('high-2')),
    ];
    expect(limiter.pending).to.equal(5);
    await Promise.all(waits);
    expect(order).to.deep.equal(['high-1', 'high-2', 'normal-1', 'normal-2', 'normal-3']);
    expect(limiter.pending).to.equal(0);
  });

  it('lets a high-priority request take a free token while normal ones wait, never a normal one past them', async () => {
    const limiter = new RateLimiter(1000, 2);
    await limiter.take();
    await limiter.take();
    const order: string[] = [];
    const normal = limiter.take('normal').then(() => order.push('normal'));
    expect(limiter.pending).to.equal(1);
    const high = limiter.take('high').then(() => order.push('high'));
    await Promise.all([normal, high]);
    expect(order).to.deep.equal(['high', 'normal']);
  });

  it('does not limit at all with qps 0', async () => {
    const limiter = new RateLimiter(0, 0);
    for (let i = 0; i < 1000; i++) await limiter.take('normal');
    expect(limiter.pending).to.equal(0);
  });
});
