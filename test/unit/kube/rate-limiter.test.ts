// The client-side rate limit: a token bucket whose waiters are served by priority, then in arrival order, so that a
// write carrying a verdict (the taint) is never queued behind reads or Events. On a fake clock: a token comes back
// exactly when the clock says, so the order and the pending counts are exact, however slow the machine (the test once
// read the real clock, and a full suite under c8 let a token come back between two awaits: issue 38).
import { expect } from 'chai';
import { RateLimiter } from '../../../src/kube/index.js';
import { FakeClock, flushPromises } from '../../support/fake-clock.js';

describe('reconciler rate limiter', () => {
  it('serves a waiting high-priority request before every waiting normal one, each priority in order', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1000, 1, clock);
    await limiter.take(); // the bucket is empty now
    const order: string[] = [];
    const waits = [
      limiter.take('normal').then(() => order.push('normal-1')),
      limiter.take('normal').then(() => order.push('normal-2')),
      limiter.take('high').then(() => order.push('high-1')),
      limiter.take().then(() => order.push('normal-3')),
      limiter.take('high').then(() => order.push('high-2')),
    ];
    await flushPromises();
    expect(limiter.pending).to.equal(5);
    expect(order).to.deep.equal([]);
    // One token a millisecond at qps 1000, one waiter served per token, by priority.
    const expected = ['high-1', 'high-2', 'normal-1', 'normal-2', 'normal-3'];
    for (let served = 1; served <= 5; served++) {
      await clock.advance(1);
      expect(order).to.deep.equal(expected.slice(0, served));
      expect(limiter.pending).to.equal(5 - served);
    }
    await Promise.all(waits);
    expect(clock.pendingTimers()).to.equal(0);
  });

  it("serves a low-priority request (a secondary controller's) only when no high or normal one waits", async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1000, 1, clock);
    await limiter.take();
    const order: string[] = [];
    const waits = [
      limiter.take('low').then(() => order.push('low-1')),
      limiter.take('normal').then(() => order.push('normal')),
      limiter.take('low').then(() => order.push('low-2')),
      limiter.take('high').then(() => order.push('high')),
    ];
    for (let i = 0; i < 4; i++) await clock.advance(1);
    await Promise.all(waits);
    expect(order).to.deep.equal(['high', 'normal', 'low-1', 'low-2']);
    // A free token: a low request takes it only while nobody waits (here, nobody does).
    await clock.advance(1);
    await limiter.take('low');
    expect(limiter.pending).to.equal(0);
    // The bucket empty, a normal request waiting: a low one queues behind it even when a token comes.
    const late: string[] = [];
    const n = limiter.take('normal').then(() => late.push('normal'));
    const l = limiter.take('low').then(() => late.push('low'));
    await clock.advance(1);
    expect(late).to.deep.equal(['normal']);
    await clock.advance(1);
    await Promise.all([n, l]);
    expect(late).to.deep.equal(['normal', 'low']);
  });

  it('serves nobody before the token is due: 999 µs after the last one, still all waiting', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1000, 1, clock);
    await limiter.take();
    const order: string[] = [];
    void limiter.take('normal').then(() => order.push('normal'));
    await clock.advance(0.999);
    expect(order).to.deep.equal([]);
    expect(limiter.pending).to.equal(1);
    await clock.advance(0.001);
    expect(order).to.deep.equal(['normal']);
    expect(limiter.pending).to.equal(0);
  });

  it('lets a high-priority request take a free token while normal ones wait, never a normal one past them', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(1000, 2, clock);
    await limiter.take();
    await limiter.take();
    const order: string[] = [];
    const normal = limiter.take('normal').then(() => order.push('normal'));
    expect(limiter.pending).to.equal(1);
    const high = limiter.take('high').then(() => order.push('high'));
    expect(limiter.pending).to.equal(2);
    await clock.advance(1);
    expect(order).to.deep.equal(['high']);
    expect(limiter.pending).to.equal(1);
    // A token freed while a normal request waits goes to it, not to a normal request that came later.
    const later = limiter.take('normal').then(() => order.push('normal-later'));
    expect(limiter.pending).to.equal(2);
    await clock.advance(1);
    expect(order).to.deep.equal(['high', 'normal']);
    await clock.advance(1);
    await Promise.all([normal, high, later]);
    expect(order).to.deep.equal(['high', 'normal', 'normal-later']);
  });

  it('refills up to burst while idle, and no further', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(10, 3, clock);
    for (let i = 0; i < 3; i++) await limiter.take();
    await clock.advance(10_000); // 100 tokens' worth of time: the bucket holds 3
    let taken = 0;
    for (let i = 0; i < 4; i++) void limiter.take().then(() => taken++);
    await flushPromises();
    expect(taken).to.equal(3);
    expect(limiter.pending).to.equal(1);
    await clock.advance(99);
    expect(taken).to.equal(3);
    await clock.advance(1);
    expect(taken).to.equal(4);
    expect(limiter.pending).to.equal(0);
  });

  it('does not limit at all with qps 0', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter(0, 0, clock);
    for (let i = 0; i < 1000; i++) await limiter.take('normal');
    expect(limiter.pending).to.equal(0);
    expect(clock.pendingTimers()).to.equal(0);
  });
});
