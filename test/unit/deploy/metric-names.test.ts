// The per-Cluster label and the metric names against Karmada's: the label is Karmada's own `member_cluster`
// (pkg/metrics/cluster.go in Karmada v1.18.2), every name carries our one prefix and none is a name Karmada uses or
// proposes (PR #7616), and the shipped alerts and dashboard speak only that label.
import { readFileSync } from 'node:fs';
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
import { createMetrics } from '../../../src/reconciler/metrics.js';

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

describe('docs/monitoring.md lists every series with its labels', () => {
  const doc = readFileSync('docs/monitoring.md', 'utf8');

  it('names each fleet metric with exactly the labels the registry gives it', () => {
    const registry = createMetrics().registry;
    const perCluster = new Set<string>(Object.values(CLUSTER_METRICS).map((m) => m.name));
    for (const metric of registry.getMetricsAsArray() as unknown as { name: string; labelNames: string[] }[]) {
      if (perCluster.has(metric.name)) continue;
      const short = metric.name.slice(METRIC_PREFIX.length);
      const written = metric.labelNames.length > 0 ? `\`${short}{${metric.labelNames.join(',')}}\`` : `\`${short}\``;
      expect(doc, metric.name).to.include(written);
    }
  });

  it('names every fleet metric of the one table, the shard series before a replica registers them', () => {
    // The registry only has what createMetrics() builds; FLEET_METRICS is the contract (the Lease-sharding gauges).
    for (const name of Object.values(FLEET_METRICS))
      expect(doc, name).to.include(`\`${name.slice(METRIC_PREFIX.length)}`);
  });

  it('has a row for each per-Cluster metric with its labels besides member_cluster', () => {
    for (const m of Object.values(CLUSTER_METRICS)) {
      const short = m.name.slice(METRIC_PREFIX.length);
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${short}\` |`));
      expect(row, m.name).to.not.equal(undefined);
      for (const label of m.labels) expect(row, `${m.name} ${label}`).to.include(`\`${label}\``);
    }
    expect(doc).to.include(`Labels besides \`${CLUSTER_LABEL}\``);
    expect(doc).to.include(`\`${KARMADA_METRICS.clusterReady}{${CLUSTER_LABEL}}\``);
  });
});
