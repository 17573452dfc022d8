// `cluster-probe dev up --karmada --host`: the topology an operator runs, on one machine. A real Karmada
// (src/dev/karmada.ts) with its apiservers on a bridge address, and its host cluster as a real one-node Kubernetes
// (src/dev/host-node.ts: kubelet, containerd, CNI bridge) running the project's image, built from the Dockerfile
// (scripts/build-image.mjs); the chart installed on both with `helm install`, the lines printed as they were run.
// Needs root (containerd, kubelet, the bridge) and a clone of the repository (the build scripts).
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProcessGroup, freePort } from './controlplane.js';
import { startHostNode, type HostNode } from './host-node.js';
import { PLAYGROUND_PROBE, karmadaBinaries } from './karmada-playground.js';
import { startKarmada, type KarmadaControlPlane } from './karmada.js';
import { createNodeBridge, type NodeBridge } from './node-bridge.js';
import { packageRoot } from './package-root.js';
import { binariesFromScript, controlPlaneBinaries, describeProcess, runPlayground, upMatch } from './playground.js';
import { runCommand } from './run-command.js';
import { devStateDir, stableKubeconfigPath, writeState } from './state.js';

const NAMESPACE = 'cluster-probe-system';
const RELEASE = 'cluster-probe';
const RECONCILER = 'cluster-probe-reconciler';
const PROBE_ANNOTATION = 'cluster.karmada.io/liveness-probe';

export interface HostDevUpOptions {
  members: number;
  progress?: (line: string) => void;
  out?: (text: string) => void;
  /** Called once the playground is up (tests); default: wait for a signal. */
  onReady?: (playground: { karmada: KarmadaControlPlane; node: HostNode; helmLines: string[] }) => Promise<void> | void;
}

interface BuiltImage {
  image: string;
  archives: string[];
}

/** The image and the archives containerd imports: CLUSTER_PROBE_IMAGE and CLUSTER_PROBE_IMAGE_ARCHIVES, or built. */
async function imageAndArchives(nodeBinDir: string, progress: (line: string) => void): Promise<BuiltImage> {
  const image = process.env.CLUSTER_PROBE_IMAGE;
  const archives = process.env.CLUSTER_PROBE_IMAGE_ARCHIVES;
  if (image && archives) return { image, archives: archives.split(':') };
  const script = join(packageRoot(), 'scripts', 'build-image.mjs');
  if (!existsSync(script)) {
    throw new Error(`${script} is missing: run dev up --host from a clone of the repository`);
  }
  progress('finding or building the image from the Dockerfile (podman; the first build takes 2-3 minutes)');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, '--json', '--archives', join(nodeBinDir, 'pause')], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) {
        reject(new Error(`${script} failed (exit ${code}); see its lines above`));
        return;
      }
      resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as BuiltImage);
    });
  });
}

async function must(what: string, command: string, args: string[]): Promise<string> {
  const r = await runCommand(command, args, { label: what, timeoutMs: 300_000 });
  if (r.code !== 0) throw new Error(`${what} failed: ${(r.stderr || r.stdout).trim()}`);
  return r.stdout;
}

export async function devUpKarmadaHost(options: HostDevUpOptions): Promise<number> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`cluster-probe dev: ${line}\n`));
  const out = options.out ?? ((text: string) => process.stdout.write(text));
  const startedAt = new Date().toISOString();
  if (process.getuid?.() !== 0)
    throw new Error('dev up --host runs containerd, a kubelet and a bridge: run it as root');
  return runPlayground(progress, async (onStop) => {
    // Filled in as each part starts; stop() stops what there is.
    const parts: { bridge?: NodeBridge; karmada?: KarmadaControlPlane; node?: HostNode } = {};
    onStop(async () => {
      await parts.node?.stop();
      await parts.karmada?.stop();
      parts.bridge?.remove();
    });
    const controlPlaneBinDir = await controlPlaneBinaries(progress);
    const karmadaBinDir = await karmadaBinaries(progress);
    const nodeBinDir = await binariesFromScript(
      'build-node.mjs',
      'CLUSTER_PROBE_NODE_BIN',
      'kubelet, kube-controller-manager, kube-scheduler',
      progress,
    );
    const helm =
      process.env.CLUSTER_PROBE_HELM ??
      join(await binariesFromScript('build-helm.mjs', 'CLUSTER_PROBE_HELM_DIR', 'helm', progress), 'helm');
    const built = await imageAndArchives(nodeBinDir, progress);

    const bridge = createNodeBridge({ log: progress });
    parts.bridge = bridge;
    const karmada = await startKarmada({
      controlPlaneBinDir,
      karmadaBinDir,
      members: options.members,
      address: bridge.gateway,
      parentDir: devStateDir(),
      keep: false,
      handleSignals: false,
      name: 'dev-karmada',
      log: progress,
    });
    parts.karmada = karmada;
    const host = karmada.host;
    // A kube-controller-manager beside karmada-apiserver, as `karmadactl init` runs one: its token controller fills
    // the chart's token Secret.
    host.adopt(
      new ProcessGroup(
        'karmada-kube-controller-manager',
        join(nodeBinDir, 'kube-controller-manager'),
        [
          `--kubeconfig=${host.kubeconfigPath}`,
          '--bind-address=127.0.0.1',
          `--secure-port=${await freePort()}`,
          '--leader-elect=false',
          `--service-account-private-key-file=${join(host.dir, 'sa.key')}`,
          `--root-ca-file=${join(host.dir, 'ca.crt')}`,
          '--controllers=serviceaccount-token,serviceaccount,namespace,garbagecollector',
        ],
        join(host.dir, 'kube-controller-manager.log'),
      ),
    );
    const node = await startHostNode({
      bridge,
      controlPlaneBinDir,
      nodeBinDir,
      imageArchives: built.archives,
      // Not the state directory: the kubelet makes unix sockets under its root, whose paths may not pass 104 bytes.
      parentDir: tmpdir(),
      log: (line) => progress(`host cluster: ${line}`),
    });
    parts.node = node;
    copyFileSync(host.kubeconfigPath, stableKubeconfigPath());
    const hostKubeconfig = join(devStateDir(), 'host.kubeconfig');
    copyFileSync(node.controlPlane.kubeconfigPath, hostKubeconfig);
    const record = () =>
      writeState({
        pid: process.pid,
        match: upMatch(),
        dir: host.dir,
        kubeconfigPath: stableKubeconfigPath(),
        apiserverUrl: host.url,
        startedAt,
        processes: [
          ...host.pids().map((pid) => describeProcess(pid, host.dir)),
          ...karmada.members.flatMap((m) =>
            m.controlPlane.pids().map((pid) => describeProcess(pid, m.controlPlane.dir)),
          ),
          ...node.pids().map((pid) => describeProcess(pid, node.dir)),
        ],
        members: karmada.members.map((m) => ({
          name: m.name,
          kubeconfigPath: m.controlPlane.kubeconfigPath,
          dir: m.controlPlane.dir,
        })),
      });
    record();
    for (const member of karmada.members) {
      await must(`kubectl annotate cluster ${member.name}`, 'kubectl', [
        '--kubeconfig',
        host.kubeconfigPath,
        'annotate',
        '--overwrite',
        'cluster',
        member.name,
        `${PROBE_ANNOTATION}=${JSON.stringify(PLAYGROUND_PROBE)}`,
      ]);
    }

    // The chart README's install, both halves; each line printed as run.
    const chart = join(packageRoot(), 'charts', 'karmada-cluster-probe');
    const helmLines: string[] = [];
    const runHelm = async (kubeconfig: string, args: string[]) => {
      const line = `helm --kubeconfig ${kubeconfig} ${args.join(' ')}`;
      helmLines.push(line);
      progress(line);
      await must('helm', helm, ['--kubeconfig', kubeconfig, ...args]);
    };
    // The chart on each half, as its README says: one `helm install` but for the values of that half.
    const install = (kubeconfig: string, values: string[]): Promise<void> =>
      runHelm(kubeconfig, ['install', RELEASE, chart, '-n', NAMESPACE, '--create-namespace', ...values, '--wait']);
    await install(host.kubeconfigPath, ['--set', 'target=karmada-apiserver']);
    const ka = ['--kubeconfig', host.kubeconfigPath, '-n', NAMESPACE];
    let token = '';
    for (let i = 0; i < 120 && token === ''; i++) {
      token = await must('kubectl get secret', 'kubectl', [
        ...ka,
        'get',
        'secret',
        `${RECONCILER}-token`,
        '-o',
        'jsonpath={.data.token}',
      ]);
      if (token === '') await new Promise((r) => setTimeout(r, 500));
    }
    if (token === '')
      throw new Error(`Secret ${RECONCILER}-token was never filled (kube-controller-manager's log: ${host.dir})`);
    const caB64 = await must('kubectl get secret', 'kubectl', [
      ...ka,
      'get',
      'secret',
      `${RECONCILER}-token`,
      '-o',
      'jsonpath={.data.ca\\.crt}',
    ]);
    const caFile = join(host.dir, 'reconciler-ca.crt');
    writeFileSync(caFile, Buffer.from(caB64, 'base64'));
    const karmadaConfig = join(host.dir, 'karmada.config');
    const kc = (args: string[]) =>
      must('kubectl config', 'kubectl', ['config', '--kubeconfig', karmadaConfig, ...args]);
    await kc([
      'set-cluster',
      'karmada-apiserver',
      '--embed-certs',
      `--certificate-authority=${caFile}`,
      `--server=${host.url}`,
    ]);
    await kc(['set-credentials', RECONCILER, `--token=${Buffer.from(token, 'base64').toString()}`]);
    await kc(['set-context', 'karmada', '--cluster=karmada-apiserver', `--user=${RECONCILER}`]);
    await kc(['use-context', 'karmada']);
    await install(hostKubeconfig, [
      '--set',
      'target=host',
      '--set-file',
      `karmadaKubeconfig.kubeconfig=${karmadaConfig}`,
      '--set',
      `image.tag=${built.image.slice(built.image.lastIndexOf(':') + 1)}`,
      '--set',
      'image.pullPolicy=Never',
    ]);
    record();

    const k = `kubectl --kubeconfig ${stableKubeconfigPath()}`;
    const h = `kubectl --kubeconfig ${hostKubeconfig}`;
    const first = karmada.members[0]?.name ?? 'member1';
    out(
      [
        '',
        `Karmada is up: karmada-apiserver ${host.url} with ${karmada.members.length} members; its host cluster is a real`,
        `one-node Kubernetes (node ${node.nodeName} at ${bridge.gateway}) running ${built.image}.`,
        'The chart was installed as its README says:',
        ...helmLines.map((l) => `  ${l}`),
        '',
        `1. The reconciler's Pods on the node, and the Lease one of them holds in karmada-apiserver:`,
        `     ${h} -n ${NAMESPACE} get pods -o wide`,
        `     ${k} -n ${NAMESPACE} get lease ${RECONCILER}`,
        `2. Make every node of ${first} NotReady; within ~${PLAYGROUND_PROBE.periodSeconds * PLAYGROUND_PROBE.failureThreshold} s the Pod writes Healthy=False and the taint:`,
        `     cluster-probe dev nodes ${first} --ready=false`,
        `     ${k} get cluster ${first} -o jsonpath='{.spec.taints}{"\\n"}'`,
        `3. Its logs: ${h} -n ${NAMESPACE} logs deploy/${RECONCILER} is not served here (no kubelet client`,
        `   certificate); read ${node.dir}/pod-logs/ instead.`,
        '',
        'Press Ctrl-C to stop and remove everything (or run `cluster-probe dev down` from another terminal).',
        '',
      ].join('\n'),
    );
    const running = { karmada, node, helmLines };
    return {
      failure: () => node.failure(),
      ...(options.onReady ? { onReady: async () => options.onReady?.(running) } : {}),
    };
  });
}
