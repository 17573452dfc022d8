// `cluster-probe dev up --karmada`: the playground a Karmada user gets first. A real Karmada control plane
// (src/dev/karmada.ts) with member kube-apiservers joined as Push Clusters, our webhook (registered on
// karmada-apiserver; called for Cluster writes only when karmada-aggregated-apiserver has the admission patch) and our
// reconciler in annotation mode; a printed walkthrough flips a member's nodes and shows the taint and a workload
// skipping it. `dev nodes MEMBER --ready=false|true` flips them; `dev down` cleans it all.
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { annotateProbe, asList, setNodesReady, startKarmada, type KarmadaControlPlane } from './karmada.js';
import { PROBE_ANNOTATION } from '@karmada-cluster-probe/schema/api';
import {
  binariesFromScript,
  childFailure,
  controlPlaneBinaries,
  describeProcess,
  runPlayground,
  upMatch,
} from './playground.js';
import { runCommand } from './run-command.js';
import { devStateDir, isRunning, readState, stableKubeconfigPath, writeState, type PlaygroundState } from './state.js';
import { startReconciler } from './reconciler-process.js';
import { currentCli, WebhookProcess, type CliInvocation } from './webhook-process.js';

export interface KarmadaDevUpOptions {
  members: number;
  /** Run karmada-aggregated-apiserver with the admission patch, so our webhook sees Cluster writes. */
  admission: boolean;
  cli?: CliInvocation;
  progress?: (line: string) => void;
  out?: (text: string) => void;
  /** Called once the playground is up (tests); default: wait for a signal. */
  onReady?: (karmada: KarmadaControlPlane) => Promise<void> | void;
}

/** The sample probe every member gets: all of its (two) nodes Ready, checked every 5 s, 2 failures to taint. */
export const PLAYGROUND_PROBE = { apiServer: { minReadyNodes: 2 }, periodSeconds: 5, failureThreshold: 2 };

/** The directory holding the Karmada binaries and artifacts (CLUSTER_PROBE_KARMADA_BIN, or built). */
export function karmadaBinaries(progress: (line: string) => void): Promise<string> {
  return binariesFromScript('build-karmada.mjs', 'CLUSTER_PROBE_KARMADA_BIN', 'Karmada v1.18.2', progress);
}

/** A Deployment and the PropagationPolicy that places it on `members` (the walkthrough's and the tests' workload). */
export function sampleWorkload(name: string, members: string[], image = 'registry.example/web:1'): string {
  const policy = {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
      placement: { clusterAffinity: { clusterNames: members } },
    },
  };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image }] },
      },
    },
  };
  return asList([policy, deployment]);
}

function record(karmada: KarmadaControlPlane, startedAt: string, webhookUrl?: string): PlaygroundState {
  const processes = [
    ...karmada.host.pids().map((pid) => describeProcess(pid, karmada.host.dir)),
    ...karmada.members.flatMap((m) => m.controlPlane.pids().map((pid) => describeProcess(pid, m.controlPlane.dir))),
  ];
  return {
    pid: process.pid,
    match: upMatch(),
    dir: karmada.host.dir,
    kubeconfigPath: stableKubeconfigPath(),
    apiserverUrl: karmada.host.url,
    ...(webhookUrl !== undefined ? { webhookUrl } : {}),
    startedAt,
    processes,
    members: karmada.members.map((m) => ({
      name: m.name,
      kubeconfigPath: m.controlPlane.kubeconfigPath,
      dir: m.controlPlane.dir,
    })),
  };
}

function walkthrough(karmada: KarmadaControlPlane, workloadFile: string, webhookUrl: string, metrics: string): string {
  const kc = stableKubeconfigPath();
  const [first, second] = karmada.members.map((m) => m.name);
  const k = `kubectl --kubeconfig ${kc}`;
  return [
    '',
    `Karmada is up: karmada-apiserver ${karmada.host.url} with ${karmada.members.length} members (${karmada.members
      .map((m) => m.name)
      .join(', ')}),`,
    `karmada-aggregated-apiserver ${karmada.admission ? 'WITH the admission patch' : '(stock: no admission chain)'},`,
    `our webhook ${webhookUrl}, our reconciler ${metrics}/metrics.`,
    '',
    `  export KUBECONFIG=${kc}`,
    '',
    `1. Every member carries the probe in the annotation ${PROBE_ANNOTATION}:`,
    `     ${k} get clusters`,
    `     ${k} get cluster ${first} -o jsonpath='{.metadata.annotations.cluster\\.karmada\\.io/liveness-probe}'`,
    `2. Make every node of ${first} NotReady (its /readyz still answers OK, so Karmada keeps it Ready):`,
    `     cluster-probe dev nodes ${first} --ready=false`,
    `3. Within ~${PLAYGROUND_PROBE.periodSeconds * PLAYGROUND_PROBE.failureThreshold} s: Healthy=False, an Event and the taint cluster.karmada.io/unhealthy:`,
    `     ${k} get cluster ${first} -o jsonpath='{.spec.taints}{"\\n"}{.status.conditions}{"\\n"}'`,
    `     ${k} get events -n default --field-selector involvedObject.name=${first}`,
    '4. A new workload skips it:',
    `     ${k} apply -f ${workloadFile}`,
    `     ${k} get resourcebinding -n default web-deployment -o jsonpath='{.spec.clusters}'   # only ${second ?? 'the others'}`,
    `5. Bring the nodes back; the taint goes:`,
    `     cluster-probe dev nodes ${first} --ready=true`,
    '',
    karmada.admission
      ? 'Admission: Cluster writes go through our webhook (try a probe with port 70000: it is denied).'
      : 'Admission: none on stock Karmada (see docs/karmada.md); the reconciler reports an invalid probe as ' +
        'Healthy=Unknown. `dev up --karmada --admission` runs the patched aggregated apiserver instead.',
    `Logs: ${karmada.host.dir}/*.log`,
    'Press Ctrl-C to stop and remove everything (or run `cluster-probe dev down` from another terminal).',
    '',
  ].join('\n');
}

export async function devUpKarmada(options: KarmadaDevUpOptions): Promise<number> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`cluster-probe dev: ${line}\n`));
  const out = options.out ?? ((text: string) => process.stdout.write(text));
  const startedAt = new Date().toISOString();
  return runPlayground(progress, async (onStop) => {
    const controlPlaneBinDir = await controlPlaneBinaries(progress);
    const karmadaBinDir = await karmadaBinaries(progress);
    const karmada = await startKarmada({
      controlPlaneBinDir,
      karmadaBinDir,
      members: options.members,
      admission: options.admission,
      parentDir: devStateDir(),
      keep: false,
      handleSignals: false,
      name: 'dev-karmada',
      log: progress,
    });
    onStop(() => karmada.stop());
    const host = karmada.host;
    copyFileSync(host.kubeconfigPath, stableKubeconfigPath());
    writeState(record(karmada, startedAt));

    for (const member of karmada.members) {
      await annotateProbe((args) => host.kubectl(args), member.name, PLAYGROUND_PROBE);
    }

    progress('starting `cluster-probe serve --probe-location annotation` and registering it on karmada-apiserver');
    const webhook = await WebhookProcess.create({
      cli: options.cli ?? currentCli(),
      dir: host.dir,
      serveArgs: ['--probe-location', 'annotation'],
      onStart: (group) => host.adopt(group),
    });
    await webhook.start();
    await host.registerWebhooks(await webhook.manifests());
    progress('starting `cluster-probe reconcile` against karmada-apiserver');
    const reconciler = await startReconciler(options.cli ?? currentCli(), host.dir, host.kubeconfigPath, (group) =>
      host.adopt(group),
    );
    writeState(record(karmada, startedAt, webhook.url));
    const workloadFile = join(host.dir, 'web.yaml');
    writeFileSync(
      workloadFile,
      sampleWorkload(
        'web',
        karmada.members.map((m) => m.name),
      ),
    );
    out(walkthrough(karmada, workloadFile, webhook.url, reconciler.metricsUrl));
    return {
      failure: () => childFailure(webhook, reconciler),
      ...(options.onReady ? { onReady: async () => options.onReady?.(karmada) } : {}),
    };
  });
}

/** `dev nodes MEMBER --ready=BOOL`: sets the Ready condition of every Node of a member of the running playground. */
export async function devNodes(member: string, ready: boolean, progress: (line: string) => void): Promise<number> {
  const state = readState();
  if (!state || !isRunning({ pid: state.pid, match: state.match })) {
    throw new Error('no playground is running: start one with `cluster-probe dev up --karmada`');
  }
  const found = state.members?.find((m) => m.name === member);
  if (!found) {
    const names = (state.members ?? []).map((m) => m.name);
    throw new Error(
      names.length === 0
        ? 'the running playground has no members: start it with `cluster-probe dev up --karmada`'
        : `no member ${JSON.stringify(member)} in the running playground (members: ${names.join(', ')})`,
    );
  }
  const kubectl = (args: string[]) =>
    runCommand('kubectl', ['--kubeconfig', found.kubeconfigPath, ...args], {
      label: `kubectl ${args.join(' ')}`,
      startHint: '(is it on PATH?)',
    });
  const listed = await kubectl(['get', 'nodes', '-o', 'jsonpath={.items[*].metadata.name}']);
  if (listed.code !== 0) throw new Error(`listing the nodes of ${member}: ${listed.stderr.trim()}`);
  const nodes = listed.stdout.trim().split(/\s+/).filter(Boolean);
  await setNodesReady(kubectl, nodes, ready, (node) =>
    progress(`${member}: node ${node} Ready=${ready ? 'True' : 'False'}`),
  );
  return 0;
}
