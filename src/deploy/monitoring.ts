// The monitoring files generated from alerts.ts and dashboard.ts (scripts/generate-monitoring.ts writes them, the
// monitoring tests fail when one is stale): the plain Prometheus rules file and the dashboard for kustomize users,
// and the chart's PrometheusRule template (its thresholds and durations from values monitoring.alerts.*) and
// dashboard file.
import { stringify } from 'yaml';
import { ALERT_DEFAULTS, RULE_GROUP, alertRules, type AlertParams } from './alerts.js';
import { dashboard } from './dashboard.js';

export const RULES_FILE = 'manifests/monitoring/cluster-probe.rules.yaml';
export const DASHBOARD_FILE = 'manifests/monitoring/dashboard.json';
export const CHART_RULE_TEMPLATE = 'charts/karmada-cluster-probe/templates/monitoring/prometheusrule.yaml';
export const CHART_DASHBOARD_FILE = 'charts/karmada-cluster-probe/dashboards/cluster-probe.json';

const HEADER = '# Generated from src/deploy/alerts.ts by `npx tsx scripts/generate-monitoring.ts`: do not edit.\n';

/** A Prometheus rules file (`rule_files:`) with these parameters. */
export function rulesFile(params: AlertParams = ALERT_DEFAULTS): string {
  return HEADER + stringify({ groups: [{ name: RULE_GROUP, rules: alertRules(params) }] }, { lineWidth: 0 });
}

/** The chart's PrometheusRule: every parameter a value of monitoring.alerts, Prometheus' own {{ }} kept literal. */
export function chartRuleTemplate(): string {
  const placeholders = Object.fromEntries(
    Object.keys(ALERT_DEFAULTS).map((k) => [k, `@@${k}@@`]),
  ) as unknown as AlertParams;
  const groups = stringify([{ name: RULE_GROUP, rules: alertRules(placeholders) }], { lineWidth: 0 });
  const body = groups
    .replace(/\{\{|\}\}/g, (m) => (m === '{{' ? '{{`{{`}}' : '{{`}}`}}'))
    .replace(/@@(\w+)@@/g, (_m, k: string) => `{{ $a.${k} }}`)
    .replace(/^/gm, '    ')
    .trimEnd();
  return (
    HEADER.replace('# ', '{{- /* ').replace(/\n$/, ' */}}\n') +
    `{{- if and .Values.monitoring.prometheusRule.enabled (ne .Values.target "karmada-apiserver") }}
{{- $a := .Values.monitoring.alerts }}
apiVersion: monitoring.coreos.com/v1
kind: PrometheusRule
metadata:
  name: {{ .Values.reconciler.name }}
  namespace: {{ .Release.Namespace }}
  labels:
    {{- include "cluster-probe.labels" (dict "root" $ "component" "reconciler") | nindent 4 }}
    {{- with .Values.monitoring.prometheusRule.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  groups:
${body}
{{- end }}
`
  );
}

export function dashboardJson(): string {
  return `${JSON.stringify(dashboard(), null, 2)}\n`;
}

/** Every generated monitoring file by path. */
export function monitoringFiles(): Record<string, string> {
  return {
    [RULES_FILE]: rulesFile(),
    [DASHBOARD_FILE]: dashboardJson(),
    [CHART_RULE_TEMPLATE]: chartRuleTemplate(),
    [CHART_DASHBOARD_FILE]: dashboardJson(),
  };
}
