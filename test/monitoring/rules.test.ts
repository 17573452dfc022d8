// The alerts and the dashboard against the real tools: `promtool check rules` and `promtool test rules` on the
// generated rules file (test/monitoring/alerts.test.yaml: series that must and must not fire every alert, a leader
// handover among them), the generated files fresh, the chart's PrometheusRule rendered by helm equal to the rules file
// with the same parameters, the chart's defaults equal to the source's, a runbook section per alert, and every
// dashboard expression naming only metrics and variables that exist. CLUSTER_PROBE_PROMETHEUS (the directory of
// prometheus and promtool) and CLUSTER_PROBE_HELM are set by scripts/run-monitoring-tests.mjs.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { CLUSTER_METRICS, FLEET_METRICS } from '../../src/facts/metric-names.js';
import { ALERT_DEFAULTS, ALERT_NAMES, alertRules, RULE_GROUP } from '../../src/deploy/alerts.js';
import { DASHBOARD_VARIABLES, dashboardPanels } from '../../src/deploy/dashboard.js';
import { monitoringFiles, RULES_FILE } from '../../src/deploy/monitoring.js';

const PROM_DIR = process.env.CLUSTER_PROBE_PROMETHEUS;
const HELM = process.env.CLUSTER_PROBE_HELM;

function promtool(args: string[]): { status: number | null; out: string } {
  const r = spawnSync(join(PROM_DIR!, 'promtool'), args, { encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

interface RuleTest {
  alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[];
}

describe('alerts and dashboard (promtool, helm)', function () {
  this.timeout(60_000);

  it('generated files are fresh (npx tsx scripts/generate-monitoring.ts)', () => {
    for (const [path, content] of Object.entries(monitoringFiles()))
      expect(readFileSync(path, 'utf8'), `${path} is stale`).to.equal(content);
  });

  it('promtool check rules accepts the rules file', function () {
    if (PROM_DIR === undefined) this.skip();
    const r = promtool(['check', 'rules', RULES_FILE]);
    expect(r.out).to.include(`SUCCESS: ${ALERT_NAMES.length} rules found`);
    expect(r.status).to.equal(0);
  });

  it('promtool test rules: every alert fires on its series and stays silent on others', function () {
    if (PROM_DIR === undefined) this.skip();
    const r = promtool(['test', 'rules', 'test/monitoring/alerts.test.yaml']);
    expect(r.out).to.include('SUCCESS');
    expect(r.status, r.out).to.equal(0);
  });

  it('leaves no alert without a case that fires it and one that does not', () => {
    const file = parse(readFileSync('test/monitoring/alerts.test.yaml', 'utf8')) as { tests: RuleTest[] };
    const cases = file.tests.flatMap((t) => t.alert_rule_test ?? []);
    for (const name of ALERT_NAMES) {
      const mine = cases.filter((c) => c.alertname === name);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${name} fires somewhere`,
      ).to.equal(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${name} stays silent somewhere`,
      ).to.equal(true);
    }
  });

  it("the chart's alert defaults are the source's", () => {
    const values = parse(readFileSync('charts/karmada-cluster-probe/values.yaml', 'utf8')) as {
      monitoring: { alerts: Record<string, string> };
    };
    expect(values.monitoring.alerts).to.deep.equal({ ...ALERT_DEFAULTS });
  });

  it('docs/monitoring.md has a runbook section for every alert', () => {
    const doc = readFileSync('docs/monitoring.md', 'utf8');
    for (const name of ALERT_NAMES) expect(doc, name).to.match(new RegExp(`^### ${name}$`, 'm'));
  });

  it("helm renders the chart's PrometheusRule as the rules file with the same parameters", function () {
    if (HELM === undefined) this.skip();
    const params = { ...ALERT_DEFAULTS, failingFor: '1m', flappingTransitions: '3', handoverWindow: '90s' };
    const set = Object.entries(params).flatMap(([k, v]) => ['--set-string', `monitoring.alerts.${k}=${v}`]);
    const r = spawnSync(
      HELM,
      [
        'template',
        't',
        'charts/karmada-cluster-probe',
        '--set',
        'monitoring.prometheusRule.enabled=true',
        '--set-string',
        'karmadaKubeconfig.kubeconfig=x',
        ...set,
        '-s',
        'templates/monitoring/prometheusrule.yaml',
      ],
      { encoding: 'utf8' },
    );
    expect(r.status, r.stderr).to.equal(0);
    const rule = parseAllDocuments(r.stdout)
      .map((d) => d.toJS() as { kind?: string; spec?: unknown })
      .find((d) => d?.kind === 'PrometheusRule');
    expect(rule?.spec).to.deep.equal({ groups: [{ name: RULE_GROUP, rules: alertRules(params) }] });
  });

  it('every dashboard expression names metrics that exist and only its variables', () => {
    const known = new Set<string>([
      ...Object.values(FLEET_METRICS),
      ...Object.values(CLUSTER_METRICS).map((m) => m.name),
    ]);
    const panels = dashboardPanels();
    expect(new Set(panels.map((p) => p.id)).size).to.equal(panels.length);
    for (const p of panels)
      for (const t of p.targets) {
        for (const m of t.expr.matchAll(/cluster_probe_reconciler_\w+/g))
          expect(known.has(m[0].replace(/_bucket$/, '')), `${p.title}: ${m[0]}`).to.equal(true);
        for (const v of t.expr.matchAll(/\$(\w+)/g))
          expect([...DASHBOARD_VARIABLES, '__rate_interval'], `${p.title}: $${v[1]}`).to.include(v[1]);
      }
  });
});
