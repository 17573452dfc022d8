// The dashboard shipped with the chart, as Grafana's JSON model (no Grafana code here: it is data, checked by the
// tests against a real Prometheus): the fleet at a glance, one row per Cluster, the history of transitions, and the
// reconciler's own health, and our verdict beside Karmada's own Ready (`cluster_ready_state`, joined on
// member_cluster). Generated into manifests/monitoring/ and the chart by scripts/generate-monitoring.ts.
import {
  CLUSTER_LABEL,
  CLUSTER_METRICS as C,
  FLEET_METRICS as F,
  KARMADA_METRICS as K,
} from '../facts/metric-names.js';

export interface PanelTarget {
  refId: string;
  expr: string;
  legendFormat?: string;
  instant?: boolean;
  format?: 'table' | 'time_series';
}

export interface Panel {
  id: number;
  type: 'stat' | 'table' | 'timeseries';
  title: string;
  description: string;
  gridPos: { x: number; y: number; w: number; h: number };
  datasource: { type: 'prometheus'; uid: string };
  targets: PanelTarget[];
}

export const DASHBOARD_UID = 'karmada-cluster-probe';
/** The template variables the expressions use, besides Grafana's own $__rate_interval. */
export const DASHBOARD_VARIABLES = ['datasource', CLUSTER_LABEL] as const;

const sel = `${CLUSTER_LABEL}=~"$${CLUSTER_LABEL}"`;
/** Karmada's Ready (1 or 0) and our verdict `v` held (1), one series a Cluster, for the join panels. */
const karmadaReady = `max by (${CLUSTER_LABEL}) (${K.clusterReady}{${sel}})`;
const held = (v: string): string => `max by (${CLUSTER_LABEL}) (${C.verdict.name}{verdict="${v}",${sel}})`;
const DS = { type: 'prometheus', uid: '${datasource}' } as const;

export function dashboardPanels(): Panel[] {
  let id = 0;
  const panel = (
    type: Panel['type'],
    title: string,
    description: string,
    gridPos: Panel['gridPos'],
    targets: PanelTarget[],
  ): Panel => ({ id: ++id, type, title, description, gridPos, datasource: DS, targets });
  const instant = (refId: string, expr: string): PanelTarget => ({ refId, expr, instant: true, format: 'table' });
  return [
    panel('stat', 'Clusters by verdict', 'How many Clusters hold each verdict now.', { x: 0, y: 0, w: 24, h: 4 }, [
      {
        refId: 'A',
        expr: `sum by (verdict) (max by (${CLUSTER_LABEL}, verdict) (${C.verdict.name}{${sel}}))`,
        legendFormat: '{{verdict}}',
        instant: true,
      },
    ]),
    panel(
      'table',
      'Clusters',
      'One row per Cluster: the verdict it holds, since when, consecutive failures against the threshold, the ' +
        'latest probe duration.',
      { x: 0, y: 4, w: 24, h: 10 },
      [
        instant('A', `max by (${CLUSTER_LABEL}, verdict) (${C.verdict.name}{${sel}} == 1)`),
        instant('B', `max by (${CLUSTER_LABEL}) (${C.lastTransition.name}{${sel}}) * 1000`),
        instant('C', `max by (${CLUSTER_LABEL}) (${C.consecutiveFailures.name}{${sel}})`),
        instant('D', `max by (${CLUSTER_LABEL}) (${C.failureThreshold.name}{${sel}})`),
        instant('E', `max by (${CLUSTER_LABEL}) (${C.probeDuration.name}{${sel}})`),
      ],
    ),
    panel(
      'timeseries',
      'Transitions',
      'The history of probe state transitions, by Cluster and new state.',
      { x: 0, y: 14, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `sum by (${CLUSTER_LABEL}, to) (increase(${C.transitions.name}{${sel}}[$__rate_interval]))`,
          legendFormat: `{{${CLUSTER_LABEL}}} -> {{to}}`,
        },
      ],
    ),
    panel(
      'timeseries',
      'Clusters failing',
      'Clusters holding the failing verdict (Healthy=False, tainted), and those whose verdict is withheld.',
      { x: 12, y: 14, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `sum by (verdict) (max by (${CLUSTER_LABEL}, verdict) (${C.verdict.name}{verdict=~"failing|withheld",${sel}}))`,
          legendFormat: '{{verdict}}',
        },
      ],
    ),
    panel('timeseries', 'Probe duration', 'The latest probe duration of each Cluster.', { x: 0, y: 22, w: 12, h: 8 }, [
      {
        refId: 'A',
        expr: `max by (${CLUSTER_LABEL}) (${C.probeDuration.name}{${sel}})`,
        legendFormat: `{{${CLUSTER_LABEL}}}`,
      },
    ]),
    panel(
      'timeseries',
      'Probe results',
      'Probe runs a second across the fleet, by result.',
      { x: 12, y: 22, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `sum by (result) (rate(${F.probeResults}[$__rate_interval]))`,
          legendFormat: '{{result}}',
        },
      ],
    ),
    panel(
      'timeseries',
      'Probe duration p99 by handler',
      'The 99th percentile of probe durations, by handler (fleet histogram).',
      { x: 0, y: 30, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `histogram_quantile(0.99, sum by (le, handler) (rate(${F.probeDuration}_bucket[$__rate_interval])))`,
          legendFormat: '{{handler}}',
        },
      ],
    ),
    panel(
      'timeseries',
      'API writes',
      'Writes to the Kubernetes API a second, by kind and outcome.',
      { x: 12, y: 30, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `sum by (kind, outcome) (rate(${F.writes}[$__rate_interval]))`,
          legendFormat: '{{kind}} {{outcome}}',
        },
      ],
    ),
    panel(
      'stat',
      'Reconciler',
      'Replicas leading (1 expected per shard), Clusters cached, probe workers, the disruption guard.',
      { x: 0, y: 38, w: 24, h: 4 },
      [
        { refId: 'A', expr: `sum(${F.leader})`, legendFormat: 'leading', instant: true },
        { refId: 'B', expr: `max(${F.clusters})`, legendFormat: 'clusters', instant: true },
        { refId: 'C', expr: `sum(${F.workers})`, legendFormat: 'workers', instant: true },
        { refId: 'D', expr: `max(${F.proberDisrupted})`, legendFormat: 'prober disrupted', instant: true },
      ],
    ),
    panel(
      'table',
      'Karmada Ready and the probe',
      "Per Cluster, Karmada's own Ready (cluster_ready_state from karmada-controller-manager: its /readyz check) " +
        'beside our verdict healthy (1) or not (0). Needs Prometheus to scrape karmada-controller-manager too.',
      { x: 0, y: 42, w: 12, h: 8 },
      [instant('A', karmadaReady), instant('B', held('healthy'))],
    ),
    panel(
      'timeseries',
      'Disagreeing with Karmada',
      'Clusters Karmada calls Ready while the probe fails (only the probe sees them: ClusterProbeKarmadaReadyButFailing), ' +
        'and Clusters the probe passes while Karmada calls them not Ready (ClusterProbeHealthyButKarmadaNotReady).',
      { x: 12, y: 42, w: 12, h: 8 },
      [
        {
          refId: 'A',
          expr: `(${held('failing')} == 1) and on (${CLUSTER_LABEL}) (${karmadaReady} == 1)`,
          legendFormat: `{{${CLUSTER_LABEL}}}: Karmada Ready, probe failing`,
        },
        {
          refId: 'B',
          expr: `(${held('healthy')} == 1) and on (${CLUSTER_LABEL}) (${karmadaReady} == 0)`,
          legendFormat: `{{${CLUSTER_LABEL}}}: probe healthy, Karmada not Ready`,
        },
      ],
    ),
    panel(
      'timeseries',
      'Shards (--sharding lease)',
      'Clusters each replica probes and writes now, the Clusters owned by none (ClusterProbeClustersUnowned: ' +
        'assignable minus the sum of owned) and those waiting behind the fence, the live replicas a replica sees, and ' +
        'view changes. A replica killed drops its share until the others see its Lease expire. Empty without sharding.',
      { x: 0, y: 50, w: 24, h: 8 },
      [
        { refId: 'A', expr: `${F.shardOwned}`, legendFormat: 'owned {{instance}}' },
        { refId: 'B', expr: `max(${F.shardAssignable}) - sum(${F.shardOwned})`, legendFormat: 'owned by none' },
        { refId: 'C', expr: `sum(${F.shardFenced})`, legendFormat: 'fenced' },
        { refId: 'D', expr: `max(${F.shardMembers})`, legendFormat: 'members' },
        { refId: 'E', expr: `sum(increase(${F.shardRebalances}[$__rate_interval]))`, legendFormat: 'rebalances' },
      ],
    ),
  ];
}

/** The whole dashboard. */
export function dashboard(): Record<string, unknown> {
  return {
    uid: DASHBOARD_UID,
    title: 'Karmada cluster probe',
    description: 'Liveness of Karmada member clusters, from cluster-probe reconcile (docs/monitoring.md).',
    tags: ['karmada', 'cluster-probe'],
    schemaVersion: 39,
    version: 1,
    editable: true,
    refresh: '30s',
    time: { from: 'now-6h', to: 'now' },
    templating: {
      list: [
        { name: 'datasource', type: 'datasource', query: 'prometheus', label: 'Data source' },
        {
          name: CLUSTER_LABEL,
          type: 'query',
          label: 'Cluster',
          datasource: DS,
          query: `label_values(${C.verdict.name}, ${CLUSTER_LABEL})`,
          refresh: 2,
          multi: true,
          includeAll: true,
          allValue: '.*',
          current: { text: 'All', value: '$__all' },
        },
      ],
    },
    panels: dashboardPanels(),
  };
}
