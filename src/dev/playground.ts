// `cluster-probe dev up` and `dev down`: a local control plane (src/dev/controlplane.ts) with the Cluster CRD and the
// webhook registered, for a person to try things with kubectl; recorded in a state file so `dev down` can clean up
// a playground whose terminal is gone. The only dependency on this repository's layout: scripts/ and manifests/.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { waitForWebhookAnswering } from './admission-ready.js';
import { startControlPlane, type ControlPlane } from './controlplane.js';
import { crdPath, packageRoot } from './package-root.js';
import {
  commandLine,
  devStateDir,
  isRunning,
  playgroundDirs,
  readState,
  removeState,
  stableKubeconfigPath,
  statePath,
  stopRecorded,
  waitGone,
  writeState,
  type PlaygroundState,
  type RecordedProcess,
} from './state.js';
import { startReconciler, type ReconcilerProcess } from './reconciler-process.js';
import { currentCli, WebhookProcess, type CliInvocation } from './webhook-process.js';

export interface DevUpOptions {
  probeLocation: 'field' | 'annotation';
  /** Webhook port; default a free one. */
  port?: number;
  /** How to run this CLI for the webhook child; default the CLI this process runs. */
  cli?: CliInvocation;
  /** Progress lines (stderr) and the final instructions (stdout). */
  progress?: (line: string) => void;
  out?: (text: string) => void;
}

const defaultProgress = (line: string): void => {
  process.stderr.write(`cluster-probe dev: ${line}\n`);
};
const defaultOut = (text: string): void => {
  process.stdout.write(text);
};

/**
 * A directory of binaries: the environment variable `envVar` if set, else whatever `scripts/<script>` prints after
 * building what is missing (its progress lines go to our stderr). `what` names them in messages.
 */
export async function binariesFromScript(
  script: string,
  envVar: string,
  what: string,
  progress: (line: string) => void,
): Promise<string> {
  const preset = process.env[envVar];
  if (preset) return preset;
  const path = join(packageRoot(), 'scripts', script);
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing (an installed package ships no build script): run dev up from a clone of the ` +
        `repository, or set ${envVar} to a directory holding ${what}`,
    );
  }
  progress(`finding or building ${what} (the first build takes 5-25 minutes)`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const dir = stdout.trim().split('\n').pop() ?? '';
      if (code === 0 && dir !== '') resolve(dir);
      else reject(new Error(`${path} failed (${signal ?? `exit ${code}`}); see its lines above`));
    });
  });
}

/** The directory holding kube-apiserver and etcd (CLUSTER_PROBE_CONTROLPLANE_BIN, or built). */
export function controlPlaneBinaries(progress: (line: string) => void): Promise<string> {
  return binariesFromScript(
    'build-controlplane.mjs',
    'CLUSTER_PROBE_CONTROLPLANE_BIN',
    'kube-apiserver and etcd',
    progress,
  );
}

export function displayPath(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel !== '' && !rel.startsWith('..') ? rel : path;
}

export function describeProcess(pid: number, match: string): RecordedProcess {
  const line = commandLine(pid) ?? '';
  const name = line.includes(' serve ')
    ? 'webhook'
    : line.includes(' reconcile ')
      ? 'reconciler'
      : basename(line.split(' ')[0] ?? '') || 'process';
  return { pid, name, match };
}

/** The `dev up` process's own command line as the system shows it (argv[1] may have been resolved since). */
export function upMatch(): string {
  return commandLine(process.pid) ?? process.argv.join(' ');
}

function record(plane: ControlPlane, webhook: WebhookProcess | undefined, startedAt: string): PlaygroundState {
  return {
    pid: process.pid,
    match: upMatch(),
    dir: plane.dir,
    kubeconfigPath: stableKubeconfigPath(),
    apiserverUrl: plane.url,
    ...(webhook ? { webhookUrl: webhook.url } : {}),
    startedAt,
    // Every one of them has the playground directory on its command line.
    processes: plane.pids().map((pid) => describeProcess(pid, plane.dir)),
  };
}

function instructions(plane: ControlPlane, webhook: WebhookProcess, reconciler: ReconcilerProcess): string {
  const kubeconfig = stableKubeconfigPath();
  const fixture = (name: string) => displayPath(join(packageRoot(), 'test', 'fixtures', 'clusters', name));
  return [
    '',
    `The playground is up: kube-apiserver ${plane.url}, webhook ${webhook.url}, reconciler ${reconciler.metricsUrl}/metrics.`,
    '',
    `  kubeconfig: ${kubeconfig}`,
    `  export KUBECONFIG=${kubeconfig}`,
    '',
    'Try the legacy annotation being migrated by the webhook:',
    '',
    `  kubectl --kubeconfig ${kubeconfig} apply -f ${fixture('member-legacy.yaml')}`,
    `  kubectl --kubeconfig ${kubeconfig} get cluster member-legacy -o yaml`,
    '',
    `And a cluster whose probe fails, tainted by the reconciler within seconds (beside ${HEALTHY_MEMBER}, whose probe`,
    'answers: were every Cluster failing at once, the reconciler would blame itself and taint nothing):',
    '',
    `  kubectl --kubeconfig ${kubeconfig} apply -f ${fixture('playground-unreachable.yaml')}`,
    `  kubectl --kubeconfig ${kubeconfig} get clusters -o wide`,
    `  kubectl --kubeconfig ${kubeconfig} get events -n default`,
    '',
    'Logs: ' +
      ['kube-apiserver.log', 'etcd.log', 'webhook.log', 'reconciler.log'].map((f) => join(plane.dir, f)).join(', '),
    'Press Ctrl-C to stop and remove everything (or run `cluster-probe dev down` from another terminal).',
    '',
  ].join('\n');
}

/** What a started playground hands to runPlayground. */
export interface StartedPlayground {
  /** Why a child of the playground died, polled every second; undefined while all run. */
  failure(): string | undefined;
  /** Tests: run this once the playground is up, then stop (default: wait for a signal). */
  onReady?: () => Promise<void>;
}

/**
 * The life every playground shares: refuse a second one, clean up one left behind, start (registering its stop as soon
 * as there is something to stop), wait for SIGINT/SIGTERM or a crashed child, stop, remove the state file. A signal
 * during start-up stops without waiting (the control planes' exit handlers kill their processes). Exit code: 0 for a
 * signal or onReady, 1 for a crash.
 */
export async function runPlayground(
  progress: (line: string) => void,
  start: (onStop: (stop: () => Promise<void>) => void) => Promise<StartedPlayground>,
): Promise<number> {
  const existing = readState();
  if (existing && isRunning({ pid: existing.pid, match: existing.match })) {
    throw new Error(
      `a playground is already running (pid ${existing.pid}, kubeconfig ${existing.kubeconfigPath}); ` +
        'stop it with Ctrl-C in its terminal or `cluster-probe dev down`',
    );
  }
  if (existing) {
    progress(`cleaning up a playground left behind (pid ${existing.pid} is gone)`);
    await devDown({ progress });
  }

  let stopAll: (() => Promise<void>) | undefined;
  let phase: 'starting' | 'running' | 'stopping' = 'starting';
  let stopRequested: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stopRequested = resolve));
  const onSignal = (signal: NodeJS.Signals): void => {
    if (phase === 'running') {
      stopRequested(signal);
      return;
    }
    // Starting up, or a second Ctrl-C while stopping: no orderly shutdown. The control plane's exit handler kills
    // its processes and removes its directory; only the state file is ours to remove.
    removeState();
    process.stderr.write(`cluster-probe dev: ${signal}: stopped without waiting\n`);
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const run = await start((stop) => (stopAll = stop));
    phase = 'running';
    if (run.onReady) {
      await run.onReady();
      stopRequested('done');
    }
    const watcher = setInterval(() => {
      const reason = run.failure();
      if (reason !== undefined) stopRequested(reason);
    }, 1_000);
    const why = await stopped;
    clearInterval(watcher);
    phase = 'stopping';
    progress(`${why}: stopping`);
    await stopAll?.();
    removeState();
    progress('stopped; everything removed');
    return why === 'SIGINT' || why === 'SIGTERM' || why === 'done' ? 0 : 1;
  } catch (err) {
    phase = 'stopping';
    await stopAll?.();
    removeState();
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Why the webhook or the reconciler of a playground died, if one did. */
export function childFailure(webhook: WebhookProcess, reconciler: ReconcilerProcess): string | undefined {
  const reason = webhook.process?.exitReason;
  if (reason !== undefined) return `the webhook ${reason} (see ${webhook.logPath})`;
  const reconcilerExit = reconciler.group.exitReason;
  if (reconcilerExit !== undefined) return `the reconciler ${reconcilerExit} (see ${reconciler.logPath})`;
  return undefined;
}

/** Starts the playground, prints how to use it, and resolves once it has been stopped (signal or a crash). */
export async function devUp(options: DevUpOptions): Promise<number> {
  const progress = options.progress ?? defaultProgress;
  const out = options.out ?? defaultOut;
  const startedAt = new Date().toISOString();
  return runPlayground(progress, async (onStop) => {
    const binDir = await controlPlaneBinaries(progress);
    const plane = await startControlPlane({
      binDir,
      name: 'dev',
      parentDir: devStateDir(),
      keep: false,
      handleSignals: false,
      log: (line) => progress(line),
    });
    onStop(() => plane.stop());
    copyFileSync(plane.kubeconfigPath, stableKubeconfigPath());
    writeState(record(plane, undefined, startedAt));

    progress('installing the Cluster CRD');
    // Safe by construction: this control plane was made a moment ago, so it is no Karmada (see docs/karmada.md).
    await plane.applyCrd(crdPath());

    progress('making the webhook certificates and starting `cluster-probe serve`');
    const webhook = await WebhookProcess.create({
      cli: options.cli ?? currentCli(),
      dir: plane.dir,
      ...(options.port !== undefined ? { port: options.port } : {}),
      serveArgs: ['--probe-location', options.probeLocation],
      onStart: (group) => plane.adopt(group),
    });
    await webhook.start();
    writeState(record(plane, webhook, startedAt));
    progress('registering the webhook configurations (cluster-probe manifests --url ... --ca-file ...)');
    await plane.registerWebhooks(await webhook.manifests());
    progress('waiting until the apiserver calls the webhook');
    await waitForWebhookAnswering(plane);
    progress('starting `cluster-probe reconcile`');
    const reconciler = await startReconciler(options.cli ?? currentCli(), plane.dir, plane.kubeconfigPath, (group) =>
      plane.adopt(group),
    );
    writeState(record(plane, webhook, startedAt));
    progress(`creating ${HEALTHY_MEMBER}, a Cluster whose probe answers (the webhook's own port)`);
    await createHealthyMember(plane, webhook.url);
    out(instructions(plane, webhook, reconciler));
    return { failure: () => childFailure(webhook, reconciler) };
  });
}

/**
 * A Cluster whose probe answers, so the playground's fleet is not one failing Cluster: with every Cluster it judges
 * failing at once, the reconciler blames itself and taints nothing (the disruption guard), and the walkthrough's
 * failing sample would show `ProberDisrupted` instead of the taint it is there to show.
 */
export const HEALTHY_MEMBER = 'playground-healthy';

async function createHealthyMember(plane: ControlPlane, webhookUrl: string): Promise<void> {
  const port = Number(new URL(webhookUrl).port);
  const cluster = {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: HEALTHY_MEMBER },
    spec: {
      syncMode: 'Push',
      apiEndpoint: 'https://127.0.0.1:6443',
      livenessProbe: { tcpSocket: { host: '127.0.0.1', port }, periodSeconds: 1, failureThreshold: 2 },
    },
  };
  const r = await plane.kubectl(['apply', '-f', '-'], { input: JSON.stringify(cluster) });
  if (r.code !== 0) throw new Error(`cannot create the Cluster ${HEALTHY_MEMBER}: ${r.stderr.trim()}`);
}

export interface DevDownOptions {
  progress?: (line: string) => void;
}

/** Stops a playground: asks `dev up` to stop if it still runs, then kills what is left and removes its files. */
export async function devDown(options: DevDownOptions = {}): Promise<void> {
  const progress = options.progress ?? defaultProgress;
  const state = readState();
  if (state) {
    const upProcess = { pid: state.pid, match: state.match };
    if (state.pid !== process.pid && isRunning(upProcess)) {
      progress(`asking dev up (pid ${state.pid}) to stop`);
      try {
        process.kill(state.pid, 'SIGTERM');
      } catch {
        // Gone in the meantime.
      }
      if (!(await waitGone(upProcess, 30_000))) progress(`dev up (pid ${state.pid}) did not stop within 30 s`);
    }
    for (const recorded of state.processes ?? []) {
      const outcome = await stopRecorded(recorded);
      if (outcome !== 'gone') progress(`${recorded.name} (pid ${recorded.pid}) ${outcome}`);
    }
    if (existsSync(state.dir)) {
      rmSync(state.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
      progress(`removed ${state.dir}`);
    }
    removeState();
    progress(`removed ${statePath()}`);
  } else {
    progress(`no playground recorded in ${statePath()}`);
  }
  // Directories of playgrounds whose state file is gone (e.g. deleted by hand); none of their processes may run.
  const live = readState()?.dir;
  for (const dir of playgroundDirs()) {
    if (dir === live) continue;
    const running = (existsSync(join(dir, 'pids')) ? pidsIn(dir) : []).filter((pid) => isRunning({ pid, match: dir }));
    for (const pid of running) await stopRecorded({ pid, name: 'process', match: dir });
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    progress(`removed leftover ${dir}${running.length ? ` (stopped ${running.length} processes)` : ''}`);
  }
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'pids'), 'utf8')
      .split('\n')
      .map(Number)
      .filter((n) => Number.isInteger(n) && n > 0);
  } catch {
    return [];
  }
}
