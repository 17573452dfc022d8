// The disruption guard's pure decisions, table-tested against the cases of the anchors: Kubernetes' node lifecycle
// controller (TestMonitorNodeHealthEvictPodsWithDisruption: "Only zone is down - eviction shouldn't take place", "Both
// zones down", "One zone is down - eviction should take place", "Initially both zones down, one comes back", "Zone is
// partially disrupted") and Cluster API's MachineHealthCheck (maxUnhealthy, TooManyUnhealthy).
import { expect } from 'chai';
import { DISRUPTION_DEFAULTS, WITHHELD_REASONS } from '../../../src/facts/disruption.js';
import {
  DEFAULT_THRESHOLDS,
  assessFleet,
  ceilingOf,
  decide,
  domainState,
  failureDomainOf,
  parseCeiling,
  parseFailureDomain,
  type ClusterView,
  type Judged,
} from '../../../src/reconciler/disruption.js';
import type { Cluster } from '../../../packages/schema/src/schema/index.js';
import { aCluster } from '../../support/cluster.js';

const t = DEFAULT_THRESHOLDS;
/** `healthy` answering and `failing` failing Clusters of a domain; `confirmed`: the failing ones crossed their threshold. */
const judged = (domain: string, healthy: number, failing: number, confirmed = true): Judged[] => [
  ...Array.from({ length: healthy }, () => ({ domain, failing: false })),
  ...Array.from({ length: failing }, () => ({ domain, failing: true, confirmed })),
];
const view = (over: Partial<ClusterView> = {}): ClusterView => ({
  domain: 'a',
  judgedFailing: false,
  freshRun: true,
  settled: true,
  evicting: false,
  ...over,
});
const always = (): boolean => true;
const never = (): boolean => false;

describe('disruption guard: decisions (pure)', () => {
  describe('the state of a domain (ComputeZoneState)', () => {
    const rows: [total: number, failing: number, state: string][] = [
      [0, 0, 'Normal'],
      [1, 1, 'FullDisruption'],
      [5, 5, 'FullDisruption'],
      [5, 0, 'Normal'],
      // more than partialMinFailing (2) and at least 55%
      [4, 2, 'Normal'],
      [4, 3, 'PartialDisruption'],
      [10, 5, 'Normal'],
      [10, 6, 'PartialDisruption'],
      [100, 54, 'Normal'],
      [100, 55, 'PartialDisruption'],
      [100, 99, 'PartialDisruption'],
    ];
    for (const [total, failing, state] of rows)
      it(`${failing} of ${total} failing is ${state}`, () => {
        expect(domainState(total, failing, t)).to.equal(state);
      });
    it('takes its defaults from the one table in packages/schema/src/api', () => {
      expect(t.unhealthyDomainThreshold).to.equal(DISRUPTION_DEFAULTS.unhealthyDomainThreshold);
      expect(t.largeDomainSize).to.equal(DISRUPTION_DEFAULTS.largeDomainSize);
      expect(t.partialMinFailing).to.equal(DISRUPTION_DEFAULTS.partialMinFailing);
    });
  });

  describe('the fleet (master disruption mode)', () => {
    it('only domain is down: the prober blames itself, no verdict', () => {
      const a = assessFleet(judged('a', 0, 3), [], [], t);
      expect(a.proberDisrupted).to.equal(true);
      expect(decide(a, view(), always)).to.include({ kind: 'withhold', reason: WITHHELD_REASONS.proberDisrupted });
    });
    it('both domains down: the prober blames itself, and lifts a verdict written before', () => {
      const a = assessFleet([...judged('a', 0, 2), ...judged('b', 0, 2)], [], [], t);
      expect(a).to.include({ proberDisrupted: true, lifting: true });
      expect(decide(a, view({ judgedFailing: true }), always).kind).to.equal('withhold');
    });
    it('every one failing by its latest result but not all past their threshold: new verdicts held, none lifted', () => {
      const a = assessFleet([...judged('a', 0, 1, true), ...judged('b', 0, 1, false)], [], [], t);
      expect(a).to.include({ proberDisrupted: true, lifting: false });
      expect(decide(a, view(), always).kind).to.equal('withhold');
      expect(decide(a, view({ judgedFailing: true }), always)).to.deep.equal({ kind: 'verdict' });
    });
    it('one domain is down: its Clusters get their verdict at once, even evicting ones', () => {
      const a = assessFleet([...judged('a', 0, 2), ...judged('b', 2, 0)], [], [], t);
      expect(a.proberDisrupted).to.equal(false);
      expect(a.domains.get('a')?.state).to.equal('FullDisruption');
      expect(decide(a, view({ evicting: true }), never)).to.deep.equal({ kind: 'verdict' });
    });
    it('initially both down, one comes back: the other is judged again', () => {
      const down = assessFleet([...judged('a', 0, 2), ...judged('b', 0, 2)], [], [], t);
      expect(down.proberDisrupted).to.equal(true);
      const back = assessFleet([...judged('a', 0, 2), ...judged('b', 2, 0)], [], [], t);
      expect(back.proberDisrupted).to.equal(false);
      expect(decide(back, view(), always)).to.deep.equal({ kind: 'verdict' });
    });
    it('one Cluster alone failing is a verdict (self-blame starts at two)', () => {
      const a = assessFleet(judged('a', 0, 1), [], [], t);
      expect(a.proberDisrupted).to.equal(false);
      expect(decide(a, view(), always)).to.deep.equal({ kind: 'verdict' });
    });
    it('a failing sentinel blames the prober even while Clusters answer', () => {
      const a = assessFleet(
        judged('a', 5, 1),
        [],
        [{ name: 'https://status.example.com/', failing: true, confirmed: false }],
        t,
      );
      expect(a.proberDisrupted).to.equal(true);
      expect(a.why).to.include('sentinel https://status.example.com/');
    });
    it("other shards' verdicts count in domains and the ceiling, never toward self-blame", () => {
      const a = assessFleet(judged('a', 0, 2), judged('a', 3, 0), [], t);
      expect(a.proberDisrupted).to.equal(true);
      expect(a.domains.get('a')).to.include({ total: 5, failing: 2, state: 'Normal' });
      expect(a.fleet).to.deep.equal({ total: 5, failing: 2, allowed: 2 });
    });
  });

  describe('a partially disrupted domain (rate-limited evictions)', () => {
    const small = assessFleet([...judged('a', 1, 3), ...judged('b', 10, 0)], [], [], t);
    const large = assessFleet([...judged('a', 4, 6), ...judged('b', 10, 0)], [], [], t);
    it('zone is partially disrupted: small, no evicting verdict at all', () => {
      expect(small.domains.get('a')).to.include({ state: 'PartialDisruption', large: false });
      expect(decide(small, view({ evicting: true }), always)).to.include({
        kind: 'withhold',
        reason: WITHHELD_REASONS.domainPartiallyDisrupted,
      });
    });
    it('large: evicting verdicts as the rate allows, the rest held', () => {
      expect(large.domains.get('a')).to.include({ state: 'PartialDisruption', large: true });
      expect(decide(large, view({ evicting: true }), always)).to.deep.equal({ kind: 'verdict' });
      expect(decide(large, view({ evicting: true }), never).kind).to.equal('withhold');
    });
    it('NoSchedule taints are not held there: they evict nothing', () => {
      expect(decide(small, view({ evicting: false }), never)).to.deep.equal({ kind: 'verdict' });
    });
  });

  describe('the ceiling (MachineHealthCheck maxUnhealthy)', () => {
    it('holds new verdicts past it, keeps the ones written', () => {
      const a = assessFleet([...judged('a', 1, 5), ...judged('b', 3, 1)], [], [], t);
      expect(a.fleet).to.deep.equal({ total: 10, failing: 6, allowed: 5 });
      expect(decide(a, view(), always)).to.include({ kind: 'withhold', reason: WITHHELD_REASONS.tooManyUnhealthy });
      expect(decide(a, view({ judgedFailing: true }), always)).to.deep.equal({ kind: 'verdict' });
    });
    it('a whole domain down while others answer: NoSchedule past it, evicting verdicts held', () => {
      const a = assessFleet([...judged('a', 0, 6), ...judged('b', 4, 0)], [], [], t);
      expect(a.overCeiling).to.equal(true);
      expect(decide(a, view(), never)).to.deep.equal({ kind: 'verdict' });
      expect(decide(a, view({ evicting: true }), always)).to.include({ reason: WITHHELD_REASONS.tooManyUnhealthy });
    });
    it('lets one of two equal regions go', () => {
      const a = assessFleet([...judged('a', 0, 5), ...judged('b', 5, 0)], [], [], t);
      expect(decide(a, view(), always)).to.deep.equal({ kind: 'verdict' });
    });
    it('rounds a percentage down but never below one; a count is a count', () => {
      expect(ceilingOf(parseCeiling('55%'), 1)).to.equal(1);
      expect(ceilingOf(parseCeiling('55%'), 3)).to.equal(1);
      expect(ceilingOf(parseCeiling('55%'), 10)).to.equal(5);
      expect(ceilingOf(parseCeiling('0'), 10)).to.equal(0);
      expect(ceilingOf(parseCeiling('7'), 3)).to.equal(7);
    });
    it('refuses what is not a count or a percentage, saying what is', () => {
      expect(() => parseCeiling('55.5%')).to.throw('must be a count (such as 5) or a percentage (such as 55%)');
      expect(() => parseCeiling('101%')).to.throw('between 0% and 100%');
      expect(() => parseCeiling('-1')).to.throw('must be a count');
    });
  });

  describe('waiting for the evidence', () => {
    const a = assessFleet([...judged('a', 0, 1), ...judged('b', 3, 0)], [], [], t);
    it('waits for a fresh run of failures after the prober recovered', () => {
      expect(decide(a, view({ freshRun: false }), always).kind).to.equal('wait');
    });
    it('waits until every other Cluster has reported since this one began failing', () => {
      expect(decide(a, view({ settled: false }), always).kind).to.equal('wait');
    });
    it('a verdict already written stands without waiting', () => {
      expect(decide(a, view({ settled: false, freshRun: false, judgedFailing: true }), always).kind).to.equal(
        'verdict',
      );
    });
  });

  describe('failure domains', () => {
    const c = (spec: Partial<Cluster['spec']>, labels?: Record<string, string>): Cluster =>
      aCluster('x', { spec, ...(labels !== undefined ? { labels } : {}) });
    const topology = parseFailureDomain('topology');
    it('topology: region/zone, one domain for a Cluster spanning the same zones in any order', () => {
      expect(failureDomainOf(c({ region: 'eu', zones: ['b'] }), topology)).to.equal('eu/b');
      expect(failureDomainOf(c({ region: 'eu', zones: ['b', 'a', 'b'] }), topology)).to.equal('eu/a+b');
      expect(failureDomainOf(c({ region: 'eu', zones: ['a', 'b'] }), topology)).to.equal('eu/a+b');
      expect(failureDomainOf(c({ region: 'eu', zone: 'a' }), topology)).to.equal('eu/a');
      expect(failureDomainOf(c({ region: 'eu' }), topology)).to.equal('eu');
      expect(failureDomainOf(c({}), topology)).to.equal('');
    });
    it('region, label=KEY and none', () => {
      expect(failureDomainOf(c({ region: 'eu', zones: ['a'] }), parseFailureDomain('region'))).to.equal('eu');
      const label = parseFailureDomain('label=example.com/dc');
      expect(failureDomainOf(c({}, { 'example.com/dc': 'dc1' }), label)).to.equal('dc1');
      expect(failureDomainOf(c({}), label)).to.equal('');
      expect(failureDomainOf(c({ region: 'eu' }), parseFailureDomain('none'))).to.equal('');
      expect(() => parseFailureDomain('label=')).to.throw('must be topology, region, label=KEY or none');
    });
  });
});
