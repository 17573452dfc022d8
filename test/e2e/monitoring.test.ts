// Monitoring on a real Karmada v1.18.2 (src/dev/karmada.ts) with a real Prometheus (scripts/build-prometheus.mjs):
// Prometheus scrapes `cluster-probe reconcile` probing the two members (loopback health servers the test flips), with
// the shipped rules (src/deploy/alerts.ts, `for` shortened) loaded. member1 made to fail fires
// ClusterProbeClusterFailing for member1 alone within its time to Healthy=False + `for` + one evaluation interval (+ one
// scrape interval: the verdict reaches Prometheus at a scrape); every dashboard panel's expression, its variables
// substituted, returns the label sets of the playground's Clusters; the alert resolves on recovery.
// `cluster-probe status` on the same playground: exit 0 healthy, 1 failing, as the kubectl plugin
// `kubectl cluster-probe`, and `--watch` under a real pseudo-terminal (script(1)) redrawing on a change, Ctrl-C ending it.
// The same Prometheus scrapes the playground's real karmada-controller-manager (its `cluster_ready_state` on
// `member_cluster`): the join alert ClusterProbeKarmadaReadyButFailing fires for member1 once its every Node is NotReady
// while Karmada's own cluster_ready_state for it stays 1, as only this project can tell; and the reverse,
// ClusterProbeHealthyButKarmadaNotReady, fires for member2 once its kube-apiserver is killed (Karmada's /readyz
// refused, cluster_ready_state 0) while our probe of member2's workload endpoint still succeeds.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient, type KubeApi } from '../../src/reconciler/index.js';
import type { Cluster } from '../../packages/schema/src/schema/index.js';
import { CLUSTER_LABEL, CLUSTER_METRICS, KARMADA_METRICS, VERDICTS } from '../../src/facts/metric-names.js';
import { ALERT_DEFAULTS, type AlertParams } from '../../src/deploy/alerts.js';
import { dashboardPanels } from '../../src/deploy/dashboard.js';
import { rulesFile } from '../../src/deploy/monitoring.js';
import { startKarmada, type KarmadaControlPlane } from '../../src/dev/karmada.js';
import { alive, cmdline, killApiServer } from '../../src/dev/member-faults.js';
import {
  sleep,
  startHealthServer,
  startReconciler,
  waitFor,
  type HealthServer,
  type ReconcilerProcess,
} from './support/reconciler-env.js';
import { Prometheus, prometheusBinDir, type Sample } from './support/prometheus.js';

const REPO = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';
const SCRAPE_S = 1;
const EVAL_S = 1;
const FOR_S = 5;
const PARAMS: AlertParams = {
  ...ALERT_DEFAULTS,
  failingFor: `${FOR_S}s`,
  disagreeFor: `${FOR_S}s`,
  handoverWindow: '10s',
};
const FAILING_ALERT = 'ClusterProbeClusterFailing';
const JOIN_ALERT = 'ClusterProbeKarmadaReadyButFailing';
const REVERSE_ALERT = 'ClusterProbeHealthyButKarmadaNotReady';
/** Karmada's status controller: every 2 s, one failed /readyz is Ready=False (its thresholds 0 s; defaults 10 s, 30 s). */
const KARMADA_STATUS_EVERY_S = 2;

/**
 * host:port of karmada-controller-manager's /metrics, from its command line (src/dev/karmada.ts binds it to a free
 * loopback port it does not return): the real process, scraped as an operator scrapes it.
 */
function controllerManagerMetrics(karmada: KarmadaControlPlane): string {
  for (const pid of karmada.host.pids()) {
    if (!alive(pid)) continue;
    const argv = cmdline(pid);
    if (argv?.[0]?.endsWith('karmada-controller-manager') !== true) continue;
    const flag = argv.find((a) => a.startsWith('--metrics-bind-address='));
    if (flag !== undefined) return flag.slice('--metrics-bind-address='.length);
  }
  throw new Error('no karmada-controller-manager with --metrics-bind-address among the playground’s processes');
}
/** Grafana's $__rate_interval with this scrape interval (4 x scrape) and "All" for the Cluster variable. */
const RATE_INTERVAL = `${4 * SCRAPE_S}s`;

type LabelSet = Record<string, string>;
const key = (l: LabelSet): string =>
  JSON.stringify(
    Object.entries(l)
      .filter(([k]) => k !== '__name__')
      .sort(),
  );
const labelSets = (samples: Sample[]): string[] => samples.map((s) => key(s.metric)).sort();

function substitute(expr: string, cluster: string): string {
  return expr.replaceAll(`$${CLUSTER_LABEL}`, cluster).replaceAll('$__rate_interval', RATE_INTERVAL);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<Run> {
  return new Promise((ok) => {
    const child = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('close', (code) => {
      clearTimeout(timer);
      ok({ code, stdout, stderr });
    });
  });
}

describe('Karmada v1.18.2 + Prometheus: per-Cluster metrics, the failing alert, the dashboard, cluster-probe status (e2e)', function () {
  this.timeout(600_000);
  let karmada: KarmadaControlPlane | undefined;
  let api: KubeApi;
  let reconciler: ReconcilerProcess | undefined;
  let prometheus: Prometheus | undefined;
  const servers = new Map<string, HealthServer>();
  const extra: ChildProcess[] = [];
  let binDir: string | undefined;
  let names: string[] = [];

  const healthyOf = async (name: string): Promise<string | undefined> =>
    (await api.request<Cluster>('GET', `${CLUSTERS}/${name}`)).status?.conditions?.find((c) => c.type === 'Healthy')
      ?.status;
  const status = (args: string[] = [], env?: NodeJS.ProcessEnv): Promise<Run> =>
    runCli(
      process.execPath,
      ['--import', 'tsx', 'src/cli/bin.ts', 'status', '--kubeconfig', karmada!.host.kubeconfigPath, ...args],
      env,
    );

  before(async function () {
    const promDir = prometheusBinDir();
    karmada = await startKarmada({
      members: 2,
      nodesPerMember: 1,
      clusterStatusUpdateSeconds: KARMADA_STATUS_EVERY_S,
      extraControllerManagerArgs: ['--cluster-failure-threshold=0s', '--cluster-success-threshold=0s'],
    });
    names = karmada.members.map((m) => m.name).sort();
    const kc = new KubeConfig();
    kc.loadFromFile(karmada.host.kubeconfigPath);
    api = new KubeClient(kc);
    for (const name of names) {
      const server = await startHealthServer();
      servers.set(name, server);
      const probe = {
        httpGet: { host: '127.0.0.1', port: server.port, path: '/healthz' },
        periodSeconds: 1,
        failureThreshold: 2,
      };
      const out = await karmada.kubectl([
        'annotate',
        '--overwrite',
        'cluster',
        name,
        `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`,
      ]);
      if (out.code !== 0) throw new Error(`annotating ${name}: ${out.stderr}`);
    }
    reconciler = await startReconciler('monitoring', karmada.host.kubeconfigPath, [
      '--lease-namespace',
      'default',
      '--taint-effect',
      'NoSchedule',
    ]);
    prometheus = new Prometheus(promDir);
    await prometheus.start({
      targets: [`127.0.0.1:${reconciler.metricsPort}`, controllerManagerMetrics(karmada)],
      rules: rulesFile(PARAMS),
      scrapeIntervalS: SCRAPE_S,
      evaluationIntervalS: EVAL_S,
    });
    await waitFor('every member Healthy=True', 60_000, async () => {
      for (const name of names) if ((await healthyOf(name)) !== 'True') return false;
      return true;
    });
    await waitFor('Prometheus scraping the reconciler', 30_000, () => prometheus!.targetsUp(), 250);
  });

  after(async function () {
    for (const c of extra) if (c.exitCode === null) c.kill('SIGKILL');
    await prometheus?.stop();
    await reconciler?.kill('SIGTERM');
    for (const s of servers.values()) await s.close();
    await karmada?.stop();
    if (binDir !== undefined) rmSync(binDir, { recursive: true, force: true });
  });

  it('Prometheus holds every member’s verdict series, healthy', async () => {
    const verdict = CLUSTER_METRICS.verdict.name;
    const got = await waitFor('both members healthy in Prometheus', 30_000, async () => {
      const r = await prometheus!.query(`${verdict}{verdict="healthy"} == 1`);
      return r.length === names.length ? r : undefined;
    });
    expect(got.map((s) => s.metric[CLUSTER_LABEL]).sort()).to.deep.equal(names);
    // Karmada's own verdict, scraped from karmada-controller-manager, on the same label.
    const ready = await waitFor('Karmada’s cluster_ready_state for both members', 30_000, async () => {
      const r = await prometheus!.query(`${KARMADA_METRICS.clusterReady} == 1`);
      return r.length === names.length ? r : undefined;
    });
    expect(ready.map((s) => s.metric[CLUSTER_LABEL]).sort()).to.deep.equal(names);
    expect(await prometheus!.alerts()).to.satisfy((a: { labels: LabelSet }[]) =>
      a.every((x) => x.labels.alertname !== FAILING_ALERT && x.labels.alertname !== JOIN_ALERT),
    );
  });

  it('cluster-probe status: every member True, exit 0; the same as `kubectl cluster-probe status`', async () => {
    const run = await status();
    process.stderr.write(`      $ cluster-probe status\n${run.stdout.replace(/^/gm, '      ')}\n`);
    expect(run.stderr).to.equal('');
    expect(run.code).to.equal(0);
    for (const name of names)
      expect(run.stdout).to.match(
        new RegExp(`^${name}\\s+httpGet 127\\.0\\.0\\.1:\\d+/healthz\\s+True\\s+LivenessProbeSucceeded\\s`, 'm'),
      );
    binDir = mkdtempSync(join(tmpdir(), 'cluster-probe-plugin-'));
    const plugin = join(binDir, 'kubectl-karmada_probe');
    writeFileSync(
      plugin,
      `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(join(REPO, 'src/cli/bin.ts'))} "$@"\n`,
    );
    chmodSync(plugin, 0o755);
    const viaKubectl = await runCli(
      'kubectl',
      ['karmada-probe', 'status', '--kubeconfig', karmada!.host.kubeconfigPath],
      {
        ...process.env,
        PATH: `${binDir}:${process.env.PATH ?? ''}`,
      },
    );
    expect(viaKubectl.stderr).to.equal('');
    expect(viaKubectl.code).to.equal(0);
    expect(viaKubectl.stdout.split('\n').map((l) => l.replace(/\s+\S+\s*$/, ''))).to.have.length(
      run.stdout.split('\n').length,
    );
    expect(viaKubectl.stdout.split('\n')[0]).to.equal(run.stdout.split('\n')[0]);
  });

  it(`member1 made to fail fires ${FAILING_ALERT} for member1 alone within Healthy=False + for (${FOR_S} s) + one evaluation (${EVAL_S} s) and one scrape (${SCRAPE_S} s)`, async () => {
    // Healthy=False's time from a watch (the moment the apiserver tells it), not from polling.
    const stop = new AbortController();
    const seen: { member1?: string; falseAt?: number } = {};
    const watching = (async () => {
      while (!stop.signal.aborted)
        await api
          .watch<Cluster>(
            CLUSTERS,
            {},
            (e) => {
              if (e.object.metadata?.name !== 'member1') return;
              seen.member1 = e.object.status?.conditions?.find((c) => c.type === 'Healthy')?.status;
              if (seen.member1 === 'False') seen.falseAt ??= Date.now();
            },
            stop.signal,
          )
          .catch(() => sleep(100));
    })();
    let falseAt: number;
    try {
      await waitFor('a watch on the Clusters', 30_000, () => seen.member1 === 'True');
      const failAt = Date.now();
      servers.get('member1')!.healthy = false;
      falseAt = await waitFor('member1 Healthy=False', 30_000, () => seen.falseAt, 20);
      process.stderr.write(
        `      member1 Healthy=False ${((falseAt - failAt) / 1000).toFixed(1)} s after its target failed\n`,
      );
    } finally {
      stop.abort();
      await watching;
    }
    const firing = await waitFor(
      `${FAILING_ALERT} firing`,
      60_000,
      async () => {
        const alerts = await prometheus!.alerts();
        const firing = alerts.filter((a) => a.labels.alertname === FAILING_ALERT && a.state === 'firing');
        return firing.length > 0 ? firing : undefined;
      },
      50,
    );
    const firedAt = Date.now();
    const bound = (FOR_S + EVAL_S + SCRAPE_S) * 1000;
    process.stderr.write(
      `      ${FAILING_ALERT} firing ${((firedAt - falseAt) / 1000).toFixed(2)} s after Healthy=False (bound ${bound / 1000} s)\n`,
    );
    expect(firing.map((a) => a.labels[CLUSTER_LABEL])).to.deep.equal(['member1']);
    expect(firedAt - falseAt).to.be.at.most(bound);
  });

  it('every dashboard panel’s expression returns the label sets of the playground’s Clusters', async () => {
    const clusterSets = names.map((n) => key({ [CLUSTER_LABEL]: n }));
    const verdicts = VERDICTS;
    /** The label sets each panel's target must return, by panel title and refId, with member1 failing. */
    const expected: Record<string, (all: boolean) => string[] | ((got: string[]) => void)> = {
      'Clusters by verdict/A': () => [...verdicts].map((v) => key({ verdict: v })).sort(),
      'Clusters/A': (all) =>
        [
          key({ [CLUSTER_LABEL]: 'member1', verdict: 'failing' }),
          key({ [CLUSTER_LABEL]: 'member2', verdict: 'healthy' }),
        ].filter((k) => all || k.includes('member2')),
      'Clusters/B': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Clusters/C': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Clusters/D': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Clusters/E': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Transitions/A': (all) => (got) => {
        const parsed = got.map((g) => Object.fromEntries(JSON.parse(g) as [string, string][]));
        expect([...new Set(parsed.map((p) => p[CLUSTER_LABEL]))].sort()).to.deep.equal(all ? names : ['member2']);
        for (const p of parsed) expect(Object.keys(p).sort()).to.deep.equal([CLUSTER_LABEL, 'to'].sort());
        if (all) expect(parsed).to.deep.include({ [CLUSTER_LABEL]: 'member1', to: 'failure' });
      },
      'Clusters failing/A': () => [key({ verdict: 'failing' }), key({ verdict: 'withheld' })],
      'Probe duration/A': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Probe results/A': () => [key({ result: 'failure' }), key({ result: 'success' })],
      'Probe duration p99 by handler/A': () => [key({ handler: 'httpGet' })],
      'API writes/A': () => (got) => {
        const parsed = got.map((g) => Object.fromEntries(JSON.parse(g) as [string, string][]));
        expect(parsed).to.deep.include({ kind: 'event', outcome: 'ok' });
        for (const p of parsed) expect(p).to.have.keys('kind', 'outcome');
        expect(
          parsed.filter((p) => p.outcome !== 'ok'),
          'a write failed',
        ).to.deep.equal([]);
      },
      'Reconciler/A': () => [key({})],
      'Reconciler/B': () => [key({})],
      'Reconciler/C': () => [key({})],
      'Reconciler/D': () => [key({})],
      'Karmada Ready and the probe/A': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      'Karmada Ready and the probe/B': (all) => clusterSets.filter((k) => all || k.includes('member2')),
      // member1 fails its probe while Karmada calls it Ready: the join holds for it alone.
      'Disagreeing with Karmada/A': (all) => (all ? [key({ [CLUSTER_LABEL]: 'member1' })] : []),
      'Disagreeing with Karmada/B': () => [],
      // One replica without --sharding: the shard series are there, at 0, with no label of ours (owned by nobody:
      // 0 - 0; the alert's silence without sharding is a promtool case).
      // Per replica (one here): its own series, no Cluster label.
      'Shards (--sharding lease)/A': () => (got) => {
        expect(got).to.have.length(1);
        expect(got[0]).to.not.include(CLUSTER_LABEL);
      },
      'Shards (--sharding lease)/B': () => [key({})],
      'Shards (--sharding lease)/C': () => [key({})],
      'Shards (--sharding lease)/D': () => [key({})],
      'Shards (--sharding lease)/E': () => [key({})],
    };
    // The Transitions panel's window needs two samples of member1's new counter series.
    await waitFor(
      'member1 -> failure in Prometheus',
      20_000,
      async () =>
        (await prometheus!.query(`${CLUSTER_METRICS.transitions.name}{${CLUSTER_LABEL}="member1",to="failure"}`))
          .length > 0,
      250,
    );
    const seen: string[] = [];
    for (const panel of dashboardPanels())
      for (const target of panel.targets) {
        const id = `${panel.title}/${target.refId}`;
        const want = expected[id];
        expect(want, `no expectation for the panel target ${id}: add one`).to.not.equal(undefined);
        for (const [all, value] of [
          [true, '.*'],
          [false, 'member2'],
        ] as const) {
          const expr = substitute(target.expr, value);
          const got = labelSets(await prometheus!.query(expr));
          const expectation = want!(all);
          if (typeof expectation === 'function') expectation(got);
          else expect(got, `${id} (${CLUSTER_LABEL}=${value}): ${expr}`).to.deep.equal([...expectation].sort());
        }
        seen.push(id);
      }
    expect(seen.sort()).to.deep.equal(Object.keys(expected).sort());
  });

  it('cluster-probe status exits 1 with member1 failing; --watch under a pseudo-terminal redraws when it heals, Ctrl-C ends it with 0', async () => {
    const failing = await status();
    process.stderr.write(`      $ cluster-probe status\n${failing.stdout.replace(/^/gm, '      ')}\n`);
    expect(failing.code).to.equal(1);
    expect(failing.stdout).to.match(
      /^member1\s+httpGet \S+\s+False\s+LivenessProbeFailed\s+\S+\s+NoSchedule\s+HTTP probe failed/m,
    );
    const command = [
      process.execPath,
      '--import',
      'tsx',
      'src/cli/bin.ts',
      'status',
      '--watch',
      '--kubeconfig',
      karmada!.host.kubeconfigPath,
    ]
      .map((a) => `'${a.replaceAll("'", "'\\''")}'`)
      .join(' ');
    // `exec`: script(1) runs the command through $SHELL -c; dash (Debian's /bin/sh, CI's SHELL) stays as the parent,
    // gets the same SIGINT from the terminal and re-raises it after node exits 0, so script reported 130 (seen in CI).
    const watch = spawn('script', ['-qefc', `exec ${command}`, '/dev/null'], {
      cwd: REPO,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, SHELL: '/bin/sh', TERM: 'xterm', NO_COLOR: '' },
    });
    extra.push(watch);
    let screen = '';
    watch.stdout.setEncoding('utf8').on('data', (s: string) => (screen += s));
    const exited = new Promise<number | null>((ok) => watch.once('exit', (code) => ok(code)));
    const draws = (): string[] => screen.split('\x1b[H\x1b[2J').slice(1);
    await waitFor(
      'the first draw on the terminal',
      60_000,
      () => draws().some((d) => /^member1\b.*False/m.test(d)),
      100,
    );
    expect(draws()[0]).to.include('\x1b[31mFalse\x1b[0m');
    servers.get('member1')!.healthy = true;
    await waitFor(
      'a redraw with member1 True',
      60_000,
      () =>
        (draws().at(-1) ?? '').split('\n').some((l) => l.startsWith('member1 ') && l.includes('\x1b[32mTrue\x1b[0m')),
      100,
    );
    watch.stdin.write('\x03');
    const code = await Promise.race([exited, new Promise<'hung'>((ok) => setTimeout(() => ok('hung'), 20_000))]);
    expect(code, `exit of status --watch after Ctrl-C; screen: ${JSON.stringify(screen.slice(-500))}`).to.equal(0);
    const firing = await waitFor(
      `${FAILING_ALERT} resolved`,
      30_000,
      async () => {
        const alerts = await prometheus!.alerts();
        return alerts.every((a) => a.labels.alertname !== FAILING_ALERT) ? alerts : undefined;
      },
      250,
    );
    expect(firing.filter((a) => a.labels.alertname === FAILING_ALERT)).to.deep.equal([]);
  });
  it(`every Node of member1 NotReady fires ${JOIN_ALERT} for member1 while Karmada's cluster_ready_state stays 1`, async () => {
    const probe = { apiServer: { minReadyNodes: 1 }, periodSeconds: 1, failureThreshold: 2 };
    const out = await karmada!.kubectl([
      'annotate',
      '--overwrite',
      'cluster',
      'member1',
      `${PROBE_ANNOTATION}=${JSON.stringify(probe)}`,
    ]);
    expect(out.code, out.stderr).to.equal(0);
    await waitFor(
      'member1 Healthy=True through its apiServer probe',
      60_000,
      async () => (await healthyOf('member1')) === 'True',
    );
    await waitFor(
      `${JOIN_ALERT} silent with member1 healthy`,
      30_000,
      async () => (await prometheus!.alerts()).every((a) => a.labels.alertname !== JOIN_ALERT),
      250,
    );
    await karmada!.setNodesReady('member1', false);
    const falseAt = await waitFor('member1 Healthy=False', 60_000, async () =>
      (await healthyOf('member1')) === 'False' ? Date.now() : undefined,
    );
    const firing = await waitFor(
      `${JOIN_ALERT} firing`,
      60_000,
      async () => {
        const alerts = await prometheus!.alerts();
        const f = alerts.filter((a) => a.labels.alertname === JOIN_ALERT && a.state === 'firing');
        return f.length > 0 ? f : undefined;
      },
      50,
    );
    const firedAt = Date.now();
    process.stderr.write(
      `      ${JOIN_ALERT} firing ${((firedAt - falseAt) / 1000).toFixed(2)} s after Healthy=False (disagreeFor ${FOR_S} s)\n`,
    );
    expect(firing.map((a) => a.labels[CLUSTER_LABEL])).to.deep.equal(['member1']);
    // Karmada's side, read twice: the scraped series and the Cluster's own Ready condition.
    const karmadaReady = await prometheus!.query(`${KARMADA_METRICS.clusterReady}{${CLUSTER_LABEL}="member1"}`);
    expect(karmadaReady.map((s) => s.value[1])).to.deep.equal(['1']);
    const cluster = await api.request<Cluster>('GET', `${CLUSTERS}/member1`);
    expect(cluster.status?.conditions?.find((c) => c.type === 'Ready')?.status).to.equal('True');
    const reverse = (await prometheus!.alerts()).filter(
      (a) => a.labels.alertname === 'ClusterProbeHealthyButKarmadaNotReady',
    );
    expect(reverse).to.deep.equal([]);
    await karmada!.setNodesReady('member1', true);
    await waitFor(
      `${JOIN_ALERT} resolved`,
      60_000,
      async () => (await prometheus!.alerts()).every((a) => a.labels.alertname !== JOIN_ALERT),
      250,
    );
  });
  it(`member2's kube-apiserver killed while its workload endpoint answers fires ${REVERSE_ALERT} for member2 alone, not ${JOIN_ALERT}`, async () => {
    const member2 = karmada!.members.find((m) => m.name === 'member2')!;
    const killed = await killApiServer(member2.controlPlane);
    try {
      const firing = await waitFor(
        `${REVERSE_ALERT} firing`,
        90_000,
        async () => {
          const f = (await prometheus!.alerts()).filter(
            (a) => a.labels.alertname === REVERSE_ALERT && a.state === 'firing',
          );
          return f.length > 0 ? f : undefined;
        },
        250,
      );
      expect(firing.map((a) => a.labels[CLUSTER_LABEL])).to.deep.equal(['member2']);
      const ready = await prometheus!.query(`${KARMADA_METRICS.clusterReady}{${CLUSTER_LABEL}="member2"}`);
      expect(ready.map((s) => s.value[1])).to.deep.equal(['0']);
      expect(await healthyOf('member2')).to.equal('True');
      expect((await prometheus!.alerts()).filter((a) => a.labels.alertname === JOIN_ALERT)).to.deep.equal([]);
    } finally {
      await killed.restart();
    }
    await waitFor(
      `${REVERSE_ALERT} resolved`,
      90_000,
      async () => (await prometheus!.alerts()).every((a) => a.labels.alertname !== REVERSE_ALERT),
      250,
    );
  });
});
