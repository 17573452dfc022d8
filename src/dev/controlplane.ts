// A real Kubernetes control plane on this machine: etcd and kube-apiserver (built by scripts/build-controlplane.mjs)
// on free loopback ports, in a temporary directory with their own PKI, RBAC authorization and an admin kubeconfig.
// Used by the e2e tests (test/e2e/harness re-exports it) and by `cluster-probe dev up`; knows nothing of the webhook.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { makeControlPlanePki } from './control-plane-pki.js';
import { freePort, httpGet, httpsGet, waitFor } from './loopback.js';
import { ProcessGroup } from './process-group.js';
import { runCommand } from './run-command.js';

export { ProcessGroup } from './process-group.js';
export { freePort, httpGet, httpsGet, waitFor } from './loopback.js';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  input?: string;
  /** Kills kubectl after this long; default 60 s. */
  timeoutMs?: number;
}

export interface ControlPlane {
  /** An admin (system:masters) kubeconfig for kubectl and @kubernetes/client-node. */
  kubeconfigPath: string;
  /** https://127.0.0.1:<port> */
  url: string;
  caPem: string;
  /** The admin client certificate and key, for clients that do not read kubeconfig files. */
  adminCert: string;
  adminKey: string;
  ports: { apiserver: number; etcdClient: number; etcdPeer: number };
  /** The temporary directory holding certificates, etcd data and the processes' logs. */
  dir: string;
  /** Runs the real kubectl on PATH against this control plane. Never throws for a non-zero exit. */
  kubectl(args: string[], options?: KubectlOptions): Promise<KubectlResult>;
  /** Applies a CRD manifest and waits until every CRD in it is Established. */
  applyCrd(path: string, timeoutMs?: number): Promise<void>;
  /** kubectl-applies the given YAML (webhook configurations, services, ...); throws with kubectl's stderr on failure. */
  registerWebhooks(manifestsYaml: string): Promise<void>;
  /**
   * Hands a process (e.g. the webhook) to the control plane: the reaper kills its group if this process dies, and
   * stop() stops it first. Returns the group.
   */
  adopt(group: ProcessGroup): ProcessGroup;
  /** The process group ids of everything running for this control plane (etcd, kube-apiserver, adopted ones). */
  pids(): number[];
  /** Stops adopted processes, kube-apiserver and etcd, and removes the temporary directory. Safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Directory holding kube-apiserver and etcd; default env CLUSTER_PROBE_CONTROLPLANE_BIN. */
  binDir?: string;
  /**
   * The address kube-apiserver binds, advertises and is reached at (url), added to its certificate; default
   * 127.0.0.1. A bridge address makes it reachable from Pods of a local node (src/dev/host-node.ts).
   */
  address?: string;
  /** Appended to kube-apiserver's flags (later flags win). */
  extraApiServerArgs?: string[];
  /** Bound on the whole start-up; default 120 s. */
  startTimeoutMs?: number;
  /** Progress lines; default one line each step to stderr. */
  log?: (line: string) => void;
  /** Names the kubeconfig context and prefixes the temporary directory; default `e2e`. */
  name?: string;
  /** Where the temporary directory is made; default the system's temporary directory. */
  parentDir?: string;
  /** Keep the directory after stop(); default env CLUSTER_PROBE_E2E_KEEP=1. */
  keep?: boolean;
  /**
   * Install SIGINT/SIGTERM handlers that kill everything and re-raise the signal; default true. A caller that does
   * its own orderly shutdown on signals (`dev up`) turns this off; the exit handler and the reaper stay.
   */
  handleSignals?: boolean;
}

const defaultLog = (line: string): void => {
  process.stderr.write(`e2e control plane: ${line}\n`);
};

// Kill what is still running if the test process is interrupted or exits without calling stop().
const running = new Set<{ groups: ProcessGroup[]; dir: string; keep: boolean }>();
let exitHandlerInstalled = false;
let signalHandlersInstalled = false;

function killAllNow(): void {
  for (const entry of running) {
    for (const group of entry.groups) group.killNow();
    // SIGKILL is not instantaneous: etcd may still be writing into the directory, so retry ENOTEMPTY a few times.
    if (!entry.keep) removeDir(entry.dir);
  }
  running.clear();
}

function removeDir(dir: string): void {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (err) {
    process.stderr.write(`e2e control plane: could not remove ${dir}: ${String(err)}\n`);
  }
}

function installExitHandlers(signals: boolean): void {
  if (!exitHandlerInstalled) {
    exitHandlerInstalled = true;
    process.on('exit', killAllNow);
  }
  if (!signals || signalHandlersInstalled) return;
  signalHandlersInstalled = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      killAllNow();
      process.kill(process.pid, signal);
    });
  }
}

/**
 * A detached shell that outlives the test process: once that process is gone, however it died (even SIGKILL, or
 * signals that mocha's process chain swallows), it kills the process groups listed in dir/pids and removes dir.
 */
function startReaper(dir: string, keep: boolean): ProcessGroup {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done; ' +
    'for p in $(cat "$2/pids" 2>/dev/null); do kill -KILL -"$p" 2>/dev/null; done; ' +
    (keep ? '' : 'rm -rf "$2"');
  const reaper = new ProcessGroup('reaper', 'sh', ['-c', script, 'reaper', String(process.pid), dir], '/dev/null');
  reaper.unref();
  return reaper;
}

function resolveBinDir(binDir: string | undefined): string {
  const dir = binDir ?? process.env.CLUSTER_PROBE_CONTROLPLANE_BIN;
  if (!dir) {
    throw new Error(
      'CLUSTER_PROBE_CONTROLPLANE_BIN is not set: run the e2e tests with `npm run test:e2e`, or set it to the ' +
        'directory that `node scripts/build-controlplane.mjs` prints',
    );
  }
  for (const binary of ['kube-apiserver', 'etcd']) {
    if (!existsSync(join(dir, binary))) {
      throw new Error(`${join(dir, binary)} does not exist: run \`node scripts/build-controlplane.mjs\` to build it`);
    }
  }
  return dir;
}

function runKubectl(kubeconfigPath: string, args: string[], options: KubectlOptions = {}): Promise<KubectlResult> {
  return runCommand('kubectl', ['--kubeconfig', kubeconfigPath, ...args], {
    env: { ...process.env, KUBECONFIG: kubeconfigPath },
    label: `kubectl ${args.join(' ')}`,
    startHint: '(is it on PATH?)',
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
}

function crdNames(manifest: string, path: string): string[] {
  const names: string[] = [];
  for (const doc of parseAllDocuments(manifest)) {
    const value: unknown = doc.toJS();
    if (typeof value !== 'object' || value === null) continue;
    const object = value as { kind?: unknown; metadata?: { name?: unknown } };
    if (object.kind === 'CustomResourceDefinition' && typeof object.metadata?.name === 'string') {
      names.push(object.metadata.name);
    }
  }
  if (names.length === 0) throw new Error(`${path}: no CustomResourceDefinition in it`);
  return names;
}

export async function startControlPlane(options: StartOptions = {}): Promise<ControlPlane> {
  const log = options.log ?? defaultLog;
  const binDir = resolveBinDir(options.binDir);
  const started = Date.now();
  const deadline = started + (options.startTimeoutMs ?? 120_000);
  const keep = options.keep ?? process.env.CLUSTER_PROBE_E2E_KEEP === '1';
  const name = options.name ?? 'e2e';
  const parentDir = options.parentDir ?? tmpdir();
  mkdirSync(parentDir, { recursive: true });
  const dir = mkdtempSync(join(parentDir, `cluster-probe-${name}-`));
  const groups: ProcessGroup[] = [];
  const entry = { groups, dir, keep };
  installExitHandlers(options.handleSignals ?? true);
  running.add(entry);

  const reaper = startReaper(dir, keep);
  const track = (group: ProcessGroup): void => {
    groups.push(group);
    if (group.pid !== undefined) appendFileSync(join(dir, 'pids'), `${group.pid}\n`);
  };

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      log('stopping kube-apiserver and etcd');
      // Adopted processes, then the apiserver: it holds watches on etcd and would log errors for etcd going away.
      for (const group of [...groups].reverse()) await group.stop();
      reaper.killNow();
      running.delete(entry);
      if (keep) log(`keeping ${dir} (CLUSTER_PROBE_E2E_KEEP=1)`);
      else removeDir(dir);
    })();
    return stopping;
  };

  try {
    log(`generating certificates in ${dir}`);
    const address = options.address ?? '127.0.0.1';
    const pki = await makeControlPlanePki(address === '127.0.0.1' ? [] : [address]);
    const file = (name: string, content: string): string => {
      const path = join(dir, name);
      writeFileSync(path, content, { mode: 0o600 });
      return path;
    };
    const caFile = file('ca.crt', pki.ca.cert);
    const servingCert = file('apiserver.crt', pki.serving.cert);
    const servingKey = file('apiserver.key', pki.serving.key);
    const saPub = file('sa.pub', pki.serviceAccount.publicKey);
    const saKey = file('sa.key', pki.serviceAccount.privateKey);
    file('admin.crt', pki.admin.cert);
    file('admin.key', pki.admin.key);

    const ports = { etcdClient: await freePort(), etcdPeer: await freePort(), apiserver: await freePort() };
    const etcdUrl = `http://127.0.0.1:${ports.etcdClient}`;
    const peerUrl = `http://127.0.0.1:${ports.etcdPeer}`;

    log(`starting etcd on ${etcdUrl}`);
    const etcd = new ProcessGroup(
      'etcd',
      join(binDir, 'etcd'),
      [
        `--name=${name}`,
        `--data-dir=${join(dir, 'etcd')}`,
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=${name}=${peerUrl}`,
        '--log-level=warn',
        // Throwaway data: durability only costs time here.
        '--unsafe-no-fsync',
        // etcd's default 2 GiB would stop the 100,000-Cluster bench (each Cluster with a member's status, twice
        // before a compaction): 8 GiB, etcd's largest suggested size; the disk holds what is written, nothing more.
        '--quota-backend-bytes=8589934592',
      ],
      join(dir, 'etcd.log'),
    );
    track(etcd);
    log('waiting for etcd /health');
    await waitFor('etcd /health', deadline, groups, async () => {
      const res = await httpGet(`${etcdUrl}/health`, 2_000);
      return res.status === 200 && res.body.includes('"health":"true"');
    });

    const url = `https://${address}:${ports.apiserver}`;
    log(`starting kube-apiserver on ${url}`);
    mkdirSync(join(dir, 'apiserver'));
    const apiserver = new ProcessGroup(
      'kube-apiserver',
      join(binDir, 'kube-apiserver'),
      [
        `--etcd-servers=${etcdUrl}`,
        `--bind-address=${address}`,
        `--advertise-address=${address}`,
        `--secure-port=${ports.apiserver}`,
        `--cert-dir=${join(dir, 'apiserver')}`,
        `--tls-cert-file=${servingCert}`,
        `--tls-private-key-file=${servingKey}`,
        `--client-ca-file=${caFile}`,
        `--service-account-key-file=${saPub}`,
        `--service-account-signing-key-file=${saKey}`,
        '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
        '--service-cluster-ip-range=10.0.0.0/24',
        '--authorization-mode=RBAC',
        '--allow-privileged=true',
        '--profiling=false',
        ...(options.extraApiServerArgs ?? []),
      ],
      join(dir, 'kube-apiserver.log'),
    );
    track(apiserver);

    const get = (path: string) =>
      httpsGet({
        host: address,
        port: ports.apiserver,
        path,
        ca: pki.ca.cert,
        cert: pki.admin.cert,
        key: pki.admin.key,
        timeoutMs: 5_000,
      });
    log('waiting for kube-apiserver /readyz');
    await waitFor('kube-apiserver /readyz', deadline, groups, async () => (await get('/readyz')).status === 200);
    log('waiting for namespace default');
    await waitFor('namespace default', deadline, groups, async () => {
      return (await get('/api/v1/namespaces/default')).status === 200;
    });

    const b64 = (pem: string) => Buffer.from(pem).toString('base64');
    // JSON is YAML: kubectl and @kubernetes/client-node both read it.
    const kubeconfigPath = file(
      'kubeconfig',
      JSON.stringify(
        {
          apiVersion: 'v1',
          kind: 'Config',
          clusters: [{ name, cluster: { server: url, 'certificate-authority-data': b64(pki.ca.cert) } }],
          users: [
            {
              name: 'admin',
              user: { 'client-certificate-data': b64(pki.admin.cert), 'client-key-data': b64(pki.admin.key) },
            },
          ],
          contexts: [{ name, context: { cluster: name, user: 'admin', namespace: 'default' } }],
          'current-context': name,
        },
        null,
        2,
      ),
    );
    log(`ready in ${((Date.now() - started) / 1000).toFixed(1)}s at ${url} (kubeconfig ${kubeconfigPath})`);

    const kubectl = (args: string[], kubectlOptions?: KubectlOptions) =>
      runKubectl(kubeconfigPath, args, kubectlOptions);

    return {
      kubeconfigPath,
      url,
      caPem: pki.ca.cert,
      adminCert: pki.admin.cert,
      adminKey: pki.admin.key,
      ports,
      dir,
      kubectl,
      async applyCrd(path: string, timeoutMs = 60_000): Promise<void> {
        const names = crdNames(readFileSync(path, 'utf8'), path);
        const applied = await kubectl(['apply', '-f', path]);
        if (applied.code !== 0) throw new Error(`kubectl apply -f ${path} failed: ${applied.stderr.trim()}`);
        log(`waiting for CRD ${names.join(', ')} to be Established`);
        const seconds = Math.max(1, Math.ceil(timeoutMs / 1000));
        const waited = await kubectl(
          ['wait', '--for=condition=Established', `--timeout=${seconds}s`, ...names.map((n) => `crd/${n}`)],
          { timeoutMs: timeoutMs + 10_000 },
        );
        if (waited.code !== 0) throw new Error(`CRD ${names.join(', ')} not Established: ${waited.stderr.trim()}`);
      },
      async registerWebhooks(manifestsYaml: string): Promise<void> {
        const applied = await kubectl(['apply', '-f', '-'], { input: manifestsYaml });
        if (applied.code !== 0) throw new Error(`kubectl apply of webhook manifests failed: ${applied.stderr.trim()}`);
      },
      adopt(group: ProcessGroup): ProcessGroup {
        track(group);
        return group;
      },
      pids(): number[] {
        return groups.filter((g) => g.exitReason === undefined && g.pid !== undefined).map((g) => g.pid as number);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
