// The disruption guard driven directly on a fake clock: the cases an attack on it found, each a test that failed on
// its first version. A partition with Clusters of mixed periods; a restart in the middle of one (Clusters not heard
// from yet); one failed probe of a healthy Cluster beside a dead one; a small fleet's zone failure past the ceiling;
// sentinels that cannot run or carry a token in their query; domain names that are huge or collide; flapping reasons.
import { expect } from 'chai';
import { DisruptionGuard } from '../../../src/reconciler/disruption-guard.js';
import {
  DEFAULT_THRESHOLDS,
  domainLabel,
  failureDomainOf,
  MAX_DOMAIN_LABEL,
} from '../../../src/reconciler/disruption.js';
import { parseSentinel } from '../../../src/reconciler/sentinels.js';
import { createMetrics } from '../../../src/reconciler/metrics.js';
import type { Desired, TaintEffectOption } from '../../../src/reconciler/desired-state.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';
import { aCluster, healthyCondition, type ClusterOptions } from '../../support/cluster.js';
import type { ResolvedTiming, WorkerState } from '../../../packages/probe/src/index.js';

/** A clock set by hand: the guard's tick is driven by the test, so no timer ever fires. */
class ManualClock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
  setTimer(): { id: number } {
    return { id: 0 };
  }
  clearTimer(): void {}
  wallNow(): number {
    return Date.UTC(2026, 0, 1) + this.t;
  }
}

const FAIL: Desired = { kind: 'state', state: 'failure', message: 'dial tcp 10.0.0.1:443: i/o timeout' };
const FAILED = healthyCondition('False', { message: 'x' });

function timing(periodSeconds: number, failureThreshold = 3): ResolvedTiming {
  return { periodSeconds, failureThreshold, successThreshold: 1, timeoutSeconds: 1, initialDelaySeconds: 0 };
}

function harness(effect: TaintEffectOption = 'NoExecute', partialDisruptionRate = 0.01) {
  const clock = new ManualClock(1_000_000);
  const clusters = new Map<string, Cluster>();
  const states = new Map<string, WorkerState>();
  const metrics = createMetrics();
  const warnings: string[] = [];
  const guard = new DisruptionGuard({
    mode: { kind: 'topology' },
    thresholds: DEFAULT_THRESHOLDS,
    partialDisruptionRate,
    taintEffect: effect,
    clock,
    metrics,
    log: { info: () => undefined, warn: (_o, msg) => void warnings.push(msg) },
    get: (n) => clusters.get(n),
    stateOf: (n) => states.get(n),
    requeue: () => undefined,
  });
  const add = (name: string, period: number, o: ClusterOptions = {}): void => {
    const c = aCluster(name, o);
    clusters.set(name, c);
    guard.track(name, guard.domainOf(c), timing(period));
  };
  /** `errored`: the kubelet's errored probe after its retries (result 'error', code ProbeErrored). */
  const result = (name: string, r: 'success' | 'failure' | 'error' | 'errored'): void =>
    guard.observe(
      name,
      r === 'errored'
        ? { result: 'error', code: 'ProbeErrored', message: 'unexpected EOF', attempts: 3, durationMs: 5 }
        : { result: r, message: r, durationMs: 5 },
    );
  /** What the reconcile would write for a Cluster whose worker says failure now. */
  const verdictOf = (name: string): string => {
    const d = guard.adjust(name, FAIL, clusters.get(name)!);
    return d.kind === 'withheld' ? d.reason : d.kind === 'state' ? 'verdict' : d.kind;
  };
  const at = (s: number): void => {
    clock.set(1_000_000 + s * 1000);
  };
  return { clock, clusters, states, guard, add, result, verdictOf, at, metrics, warnings };
}

describe('disruption guard (fake clock)', () => {
  it("counts other replicas' Clusters by the Healthy condition they wrote, as they change, each once", () => {
    const h = harness();
    h.add('own', 10, { region: 'r1' });
    h.result('own', 'success');
    const other = (name: string, status: 'True' | 'False' | undefined, region = 'r1'): Cluster =>
      aCluster(name, {
        region,
        ...(status !== undefined ? { conditions: [healthyCondition(status, { message: '' })] } : {}),
      });
    h.guard.observeOther('x', other('x', 'False'));
    h.guard.observeOther('x', other('x', 'False'));
    h.guard.observeOther('y', other('y', 'True', 'r2'));
    h.guard.observeOther('z', other('z', undefined));
    h.at(1);
    expect(h.guard.assess().fleet).to.include({ total: 3, failing: 1 });
    expect(h.guard.assess().domains.get('r1')).to.include({ total: 2, failing: 1 });
    expect(h.guard.assess().domains.get('r2')).to.include({ total: 1, failing: 0 });
    h.guard.observeOther('x', other('x', 'True'));
    h.at(2);
    expect(h.guard.assess().fleet).to.include({ total: 3, failing: 0 });
    h.guard.observeOther('y', other('y', 'True', 'r1'));
    h.at(3);
    expect(h.guard.assess().domains.get('r1')).to.include({ total: 3, failing: 0 });
    expect(h.guard.assess().domains.has('r2'), 'an empty domain is gone').to.equal(false);
    h.guard.observeOther('x', undefined);
    h.guard.observeOther('y', undefined);
    h.at(4);
    expect(h.guard.assess().fleet).to.include({ total: 1, failing: 0 });
    expect(h.guard.assess().domains.get('r1')).to.include({ total: 1, failing: 0 });
  });

  it('re-makes a dirty assessment at once below 1,000 Clusters, at most every tracked/100 ms above', () => {
    for (const [n, stale] of [
      [10, 0],
      [2000, 20],
    ] as const) {
      const h = harness();
      for (let i = 0; i < n; i++) h.add(`c${i}`, 10);
      for (let i = 0; i < n; i++) h.result(`c${i}`, 'success');
      h.at(1);
      const first = h.guard.assess();
      h.result('c0', 'failure');
      expect(h.guard.assess() === first, `${n} Clusters, at once`).to.equal(stale > 0);
      h.clock.set(h.clock.now() + stale / 2);
      expect(h.guard.assess() === first, `${n} Clusters, ${stale / 2} ms on`).to.equal(stale > 0);
      h.clock.set(h.clock.now() + stale / 2);
      const next = h.guard.assess();
      expect(next === first, `${n} Clusters, ${stale} ms on`).to.equal(false);
      expect(next.own.failing).to.equal(1);
    }
  });

  it('a partition with Clusters of mixed periods taints none of the fast ones while the slow ones are unheard', () => {
    const h = harness();
    const fast = ['f0', 'f1', 'f2', 'f3', 'f4'];
    const slow = ['s0', 's1', 's2', 's3', 's4'];
    for (const n of [...fast, ...slow]) h.add(n, fast.includes(n) ? 10 : 300);
    for (let t = 0; t <= 90; t += 10) {
      h.at(t);
      for (const n of fast) h.result(n, 'success');
      if (t === 0) for (const n of slow) h.result(n, 'success');
    }
    // The prober's network breaks at 95 s: every fast one fails three times, and then some.
    for (let t = 100; t <= 200; t += 10) {
      h.at(t);
      for (const n of fast) h.result(n, 'failure');
      if (t >= 120) for (const n of fast) expect(h.verdictOf(n), `${n} at ${t} s`).to.equal('keep');
    }
    // The slow ones run (within their period) and fail too: the prober blames itself.
    h.at(290);
    for (const n of slow) h.result(n, 'failure');
    for (const n of fast) expect(h.verdictOf(n)).to.equal('ProberDisrupted');
  });

  it('a real failure among mixed periods is judged as soon as another Cluster answers', () => {
    const h = harness();
    for (const n of ['f0', 'f1']) h.add(n, 10);
    h.add('s0', 300);
    h.at(0);
    for (const n of ['f0', 'f1', 's0']) h.result(n, 'success');
    for (let t = 10; t <= 30; t += 10) {
      h.at(t);
      h.result('f0', 'failure');
      h.result('f1', 'success');
    }
    expect(h.verdictOf('f0')).to.equal('verdict');
  });

  it('after a restart in the middle of a partition, waits for every Cluster it has not heard from yet', () => {
    const h = harness();
    for (const n of ['r1', 'r2', 'r3']) h.add(n, 10);
    h.at(1);
    h.result('r2', 'failure');
    h.result('r2', 'failure');
    h.result('r2', 'failure');
    expect(h.verdictOf('r2')).to.equal('keep');
    h.at(5);
    h.result('r1', 'failure');
    h.result('r3', 'failure');
    expect(h.verdictOf('r2')).to.equal('ProberDisrupted');
  });

  it('does not wait forever for a Cluster that never reports (a stuck probe)', () => {
    const h = harness();
    for (const n of ['a', 'b', 'stuck']) h.add(n, 10);
    h.at(0);
    h.result('a', 'success');
    for (let t = 10; t <= 40; t += 10) {
      h.at(t);
      h.result('a', 'success');
      h.result('b', 'failure');
    }
    expect(h.verdictOf('b')).to.equal('verdict');
  });

  it('one failed probe of a healthy Cluster beside a dead one holds new verdicts but lifts nothing', () => {
    const h = harness();
    h.add('dead', 10);
    h.add('ok', 10);
    for (let t = 0; t <= 30; t += 10) {
      h.at(t);
      h.result('dead', 'failure');
      h.result('ok', 'success');
    }
    expect(h.verdictOf('dead')).to.equal('verdict');
    h.clusters.get('dead')!.status = { conditions: [FAILED] };
    h.at(40);
    h.result('dead', 'failure');
    h.result('ok', 'failure');
    expect(h.verdictOf('dead'), 'kept while not confirmed').to.equal('verdict');
    h.at(60);
    h.result('ok', 'failure');
    h.result('ok', 'failure');
    expect(h.verdictOf('dead'), 'lifted once every one crossed its threshold').to.equal('ProberDisrupted');
  });

  it('a small fleet: a whole zone down while another answers gets NoSchedule at once, past the ceiling', () => {
    const build = (effect: TaintEffectOption): ReturnType<typeof harness> => {
      const h = harness(effect);
      h.add('a1', 10, { region: 'a' });
      h.add('a2', 10, { region: 'a' });
      h.add('b1', 10, { region: 'b' });
      for (let t = 0; t <= 30; t += 10) {
        h.at(t);
        h.result('b1', 'success');
        h.result('a1', t === 0 ? 'success' : 'failure');
        h.result('a2', t === 0 ? 'success' : 'failure');
      }
      return h;
    };
    expect(build('NoSchedule').verdictOf('a1')).to.equal('verdict');
    expect(build('NoExecute').verdictOf('a1')).to.equal('TooManyUnhealthy');
  });

  it('lets evicting verdicts of a partially disrupted large domain through one at a time, at its rate', () => {
    // The manager's integration test sees the same from outside (one taint at a time, the others held); the rate is
    // checked here, to the millisecond, on the guard's clock.
    const h = harness('NoExecute', 0.5);
    const a = Array.from({ length: 10 }, (_, i) => `la${i}`);
    const b = Array.from({ length: 10 }, (_, i) => `lb${i}`);
    for (const n of a) h.add(n, 1, { region: 'a' });
    for (const n of b) h.add(n, 1, { region: 'b' });
    const failing = a.slice(0, 6);
    const tick = (s: number): void => {
      h.at(s);
      for (const n of [...a, ...b]) h.result(n, s > 0 && failing.includes(n) ? 'failure' : 'success');
    };
    for (let s = 0; s <= 3; s++) tick(s);
    const verdicts = (): string[] => failing.map((n) => h.verdictOf(n));
    const held = (k: number): string[] => [
      ...Array<string>(k).fill('verdict'),
      ...Array<string>(failing.length - k).fill('DomainPartiallyDisrupted'),
    ];
    expect(verdicts()).to.deep.equal(held(1));
    // A verdict let through stays let through (the taint, then the condition, in two reconciles); no new token.
    expect(verdicts(), 'asked again at once').to.deep.equal(held(1));
    // 0.5 a second: each next token 2 s after the one before, not a millisecond sooner.
    for (let k = 1; k < failing.length; k++) {
      tick(3 + 2 * k - 1);
      h.at(3 + 2 * k - 0.001);
      expect(verdicts(), `${2 * k - 0.001} s after the first`).to.deep.equal(held(k));
      tick(3 + 2 * k);
      expect(verdicts(), `${2 * k} s after the first`).to.deep.equal(held(k + 1));
    }
  });

  it('moves between the two holding reasons without a write', () => {
    const h = harness();
    for (const n of ['a1', 'a2', 'a3', 'b1']) h.add(n, 10, { region: n.startsWith('a') ? 'a' : 'b' });
    for (let t = 0; t <= 30; t += 10) {
      h.at(t);
      h.result('b1', 'success');
      for (const n of ['a1', 'a2', 'a3']) h.result(n, t === 0 ? 'success' : 'failure');
    }
    h.clusters.get('a1')!.status = {
      conditions: [{ ...FAILED, status: 'Unknown', reason: 'DomainPartiallyDisrupted' }],
    };
    expect(h.verdictOf('a1'), 'TooManyUnhealthy now, held already').to.equal('keep');
  });

  it('drops the series and the rate bucket of a domain with no Cluster left, and bounds its label', async () => {
    const h = harness();
    h.add('gone', 10, { region: 'gone' });
    h.add('stay', 10);
    h.at(0);
    h.result('gone', 'success');
    h.result('stay', 'success');
    h.guard.assess();
    expect(await h.metrics.registry.metrics()).to.include('domain="gone"');
    h.guard.forget('gone');
    h.guard.assess();
    expect(await h.metrics.registry.metrics()).to.not.include('domain="gone"');
    const huge = aCluster('z', { region: 'r', zones: Array.from({ length: 10_000 }, (_, i) => `zone-${i}`) });
    const label = domainLabel(failureDomainOf(huge, { kind: 'topology' }));
    expect(label.length).to.be.at.most(MAX_DOMAIN_LABEL);
    expect(label).to.match(/^r\/zone-0\+zone-1\+.*~[0-9a-f]{8}$/);
  });

  it('keeps topologies that spell alike apart (a region with a slash, a zone with a plus)', () => {
    const c = (o: ClusterOptions): string => failureDomainOf(aCluster('x', o), { kind: 'topology' });
    expect(c({ region: 'a/b' })).to.not.equal(c({ region: 'a', zones: ['b'] }));
    expect(c({ region: 'r', zones: ['x+y'] })).to.not.equal(c({ region: 'r', zones: ['x', 'y'] }));
  });

  describe('errored probes (the kubelet discards them)', () => {
    it('an errored Cluster is heard from but not judged, and its run of failures goes on across it', () => {
      const h = harness();
      h.add('a', 10);
      h.add('b', 10);
      h.at(0);
      h.result('a', 'success');
      h.result('b', 'success');
      // The prober's side breaks: both fail; one run of a errors in between (read: connection reset).
      for (const [t, ra] of [
        [10, 'failure'],
        [20, 'failure'],
        [30, 'errored'],
      ] as const) {
        h.at(t);
        h.result('a', ra);
        h.result('b', 'failure');
      }
      // At 30 s a is not judged (its latest result says nothing of it): b alone, failing, is "every judged Cluster".
      expect(h.guard.assess().own).to.include({ total: 1, failing: 1 });
      expect(h.guard.assess().proberDisrupted).to.equal(false, 'one judged Cluster is a verdict, not a pattern');
      h.at(40);
      h.result('a', 'failure');
      h.result('b', 'failure');
      const a = h.guard.assess();
      expect(a.own).to.include({ total: 2, failing: 2 });
      // Confirmed: a has failed 3 in a row (10, 20, 40 s), the errored run neither broke nor extended it.
      expect(a).to.include({ proberDisrupted: true, lifting: true });
    });

    it('a Cluster whose probe now only errors never counts as healthy beside failing ones', () => {
      const h = harness();
      for (const n of ['a', 'b', 'c']) h.add(n, 10);
      for (let t = 0; t <= 30; t += 10) {
        h.at(t);
        // It answered once; since then every run errored: that old success is no evidence of health now.
        h.result('a', t === 0 ? 'success' : 'errored');
        h.result('b', t === 0 ? 'success' : 'failure');
        h.result('c', t === 0 ? 'success' : 'failure');
      }
      expect(h.guard.assess().own).to.include({ total: 2, failing: 2 });
      expect(h.verdictOf('b')).to.equal('ProberDisrupted');
    });
  });

  describe('sentinels', () => {
    it('an errored result of a sentinel is discarded: a failing one keeps holding, and its run goes on', () => {
      const h = harness();
      h.add('dead', 10);
      h.add('ok', 10);
      h.guard.addSentinel('tcp://s:1', 2);
      for (let t = 0; t <= 30; t += 10) {
        h.at(t);
        h.result('dead', 'failure');
        h.result('ok', 'success');
      }
      h.clusters.get('dead')!.status = { conditions: [FAILED] };
      const errored = { result: 'error', code: 'ProbeErrored', message: 'e', attempts: 3, durationMs: 0 } as const;
      h.guard.sentinelResult('tcp://s:1', { result: 'failure', message: 'f', durationMs: 0 });
      h.guard.sentinelResult('tcp://s:1', errored);
      h.at(31);
      expect(h.guard.assess().proberDisrupted).to.equal(true);
      expect(h.verdictOf('dead')).to.equal('verdict');
      h.guard.sentinelResult('tcp://s:1', { result: 'failure', message: 'f', durationMs: 0 });
      h.at(32);
      expect(h.verdictOf('dead')).to.equal('ProberDisrupted');
    });

    it('one that cannot run (a configuration error) counts for nothing and says so', () => {
      const h = harness();
      h.add('a', 10);
      h.add('b', 10);
      h.guard.addSentinel('tcp://s:1', 2);
      for (let t = 0; t <= 30; t += 10) {
        h.at(t);
        h.result('a', 'success');
        h.result('b', t === 0 ? 'success' : 'failure');
        h.guard.sentinelResult('tcp://s:1', { result: t === 0 ? 'success' : 'error', message: 'e', durationMs: 0 });
      }
      expect(h.verdictOf('b')).to.equal('verdict');
      expect(h.warnings).to.include('sentinel cannot run; it does not count until it can');
    });

    it('one failure holds new verdicts; written ones are lifted after its threshold in a row', () => {
      const h = harness();
      h.add('dead', 10);
      h.add('ok', 10);
      h.guard.addSentinel('tcp://s:1', 2);
      for (let t = 0; t <= 30; t += 10) {
        h.at(t);
        h.result('dead', 'failure');
        h.result('ok', 'success');
      }
      h.clusters.get('dead')!.status = { conditions: [FAILED] };
      h.guard.sentinelResult('tcp://s:1', { result: 'failure', message: 'f', durationMs: 0 });
      h.at(31);
      expect(h.verdictOf('dead')).to.equal('verdict');
      h.guard.sentinelResult('tcp://s:1', { result: 'failure', message: 'f', durationMs: 0 });
      h.at(32);
      expect(h.verdictOf('dead')).to.equal('ProberDisrupted');
    });

    it('refuses port 0, a denied address and credentials, and never shows a query', () => {
      const timing = { periodSeconds: 5, timeoutSeconds: 2 };
      expect(() => parseSentinel('tcp://h:0', timing)).to.throw('sentinel.tcpSocket.port');
      expect(() => parseSentinel('http://169.254.169.254/', timing)).to.throw('169.254.169.254');
      expect(() => parseSentinel('https://u:p@h/', timing)).to.throw('credentials');
      expect(() => parseSentinel('ftp://h/', timing)).to.throw('the scheme must be http, https or tcp');
      const s = parseSentinel('https://status.example.com/healthz?token=s3cr3t', timing);
      expect(s.name).to.equal('https://status.example.com/healthz');
      expect(s.probe.httpGet?.path).to.equal('/healthz?token=s3cr3t');
      expect(parseSentinel('tcp://[::1]:443', timing).probe.tcpSocket).to.deep.equal({ host: '::1', port: 443 });
    });
  });
});
