// The per-Cluster label and the metric names against Karmada's: the label is Karmada's own `member_cluster`
// (pkg/metrics/cluster.go in Karmada v1.18.2), every name carries our one prefix and none is a name Karmada uses or
// proposes (PR #7616), and the shipped alerts and dashboard speak only that label.
import { expect } from 'chai';
import {
  CLUSTER_LABEL,
  CLUSTER_METRICS,
  FLEET_METRICS,
  KARMADA_METRICS,
  KARMADA_RESERVED_NAMES,
  LEGACY_CLUSTER_LABEL,
  METRIC_PREFIX,
} from '../../../src/facts/metric-names.js';
import { ALERT_DEFAULTS, alertRules } from '../../../src/deploy/alerts.js';
import { dashboard } from '../../../src/deploy/dashboard.js';

const ours = [...Object.values(FLEET_METRICS), ...Object.values(CLUSTER_METRICS).map((m) => m.name)];

describe('metric names and labels (Karmada’s language)', () => {
  it('labels a Cluster member_cluster, as Karmada v1.18 does', () => {
    expect(CLUSTER_LABEL).to.equal('member_cluster');
    expect(KARMADA_METRICS.clusterReady).to.equal('cluster_ready_state');
  });

  it('gives every metric the one project prefix and no name Karmada uses or proposes', () => {
    for (const name of ours) {
      expect(name.startsWith(METRIC_PREFIX), name).to.equal(true);
      expect(KARMADA_RESERVED_NAMES, name).to.not.include(name);
    }
    for (const reserved of KARMADA_RESERVED_NAMES) expect(reserved.startsWith(METRIC_PREFIX)).to.equal(false);
  });

  it('leaves the old label cluster_name in no alert and no dashboard expression', () => {
    const text = JSON.stringify([alertRules(ALERT_DEFAULTS), dashboard()]);
    expect(text).to.not.include(LEGACY_CLUSTER_LABEL);
    expect(text).to.include(`by (${CLUSTER_LABEL})`);
  });

  it('joins with Karmada’s cluster_ready_state on member_cluster in both directions, never on it alone', () => {
    const joins = alertRules(ALERT_DEFAULTS).filter((r) => r.expr.includes(KARMADA_METRICS.clusterReady));
    expect(joins.map((r) => r.alert).sort()).to.deep.equal([
      'ClusterProbeHealthyButKarmadaNotReady',
      'ClusterProbeKarmadaReadyButFailing',
    ]);
    for (const r of joins) {
      expect(r.expr).to.include(`and on (${CLUSTER_LABEL})`);
      expect(r.expr).to.include(CLUSTER_METRICS.verdict.name);
    }
  });
});
