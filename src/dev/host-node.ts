// A one-node Kubernetes made of real parts, as Karmada's host cluster: etcd and kube-apiserver (src/dev/controlplane.ts),
// kube-controller-manager, kube-scheduler and kubelet (scripts/build-node.mjs, one `go build` of the same
// k8s.io/kubernetes), containerd from Debian with runc and the CNI bridge plugin on a bridge the caller made
// (src/dev/node-bridge.ts). Every file, socket and log sits in one temporary directory; every process is adopted by
// the control plane (its reaper kills them if the test process dies). The settings this VM needs are the measured
// ones of ../shared/real-node/README.md: cgroupfs, no QoS cgroups, restrict_oom_score_adj, the node's address on
// the bridge. Knows nothing of the chart or of Karmada.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { startControlPlane, type ControlPlane, type KubectlResult } from './controlplane.js';
import { freePort, waitFor } from './loopback.js';
import { ProcessGroup } from './process-group.js';
import type { NodeBridge } from './node-bridge.js';

/** The sandbox image containerd runs each Pod in; imported under this name (it cannot be pulled here). */
export const SANDBOX_IMAGE = 'registry.k8s.io/pause:3.6';
export const NODE_NAME = 'cluster-probe-node';
const CONTAINERD_NAMESPACE = 'k8s.io';

export interface HostNode {
  controlPlane: ControlPlane;
  nodeName: string;
  bridge: NodeBridge;
  /** The temporary directory (the control plane's). */
  dir: string;
  kubectl(args: string[], options?: { input?: string; timeoutMs?: number }): Promise<KubectlResult>;
  /** The last lines a container of a Pod wrote (from the kubelet's log files), for failure messages. */
  podLogs(namespace: string, podPrefix: string, lines?: number): string;
  /** Why a process of the node died (containerd, kubelet, ...), undefined while all run. */
  failure(): string | undefined;
  /** The process groups of the node and its control plane, for a playground's state file. */
  pids(): number[];
  /** Gives an imported image another name in containerd (the manifests' release tag, for one). */
  tagImage(source: string, target: string): void;
  /** The log tails of kubelet and containerd, for failure messages. */
  componentLogs(lines?: number): string;
  stop(): Promise<void>;
}

export interface HostNodeOptions {
  bridge: NodeBridge;
  /** Directory holding kubelet, kube-controller-manager, kube-scheduler; default env CLUSTER_PROBE_NODE_BIN. */
  nodeBinDir?: string;
  /** Directory holding kube-apiserver and etcd; default env CLUSTER_PROBE_CONTROLPLANE_BIN. */
  controlPlaneBinDir?: string;
  /** Image archives (docker-archive) imported into containerd before the kubelet starts: the sandbox's and ours. */
  imageArchives: string[];
  log?: (line: string) => void;
  parentDir?: string;
  keep?: boolean;
  /** Bound on the start-up; default 180 s. */
  startTimeoutMs?: number;
}

function resolveNodeBinDir(dir: string | undefined): string {
  const resolved = dir ?? process.env.CLUSTER_PROBE_NODE_BIN;
  if (!resolved) {
    throw new Error(
      'CLUSTER_PROBE_NODE_BIN is not set: run the node tests with `npm run test:node`, or set it to the directory ' +
        'that `node scripts/build-node.mjs` prints',
    );
  }
  for (const binary of ['kubelet', 'kube-controller-manager', 'kube-scheduler']) {
    if (!existsSync(join(resolved, binary))) {
      throw new Error(`${join(resolved, binary)} does not exist: run \`node scripts/build-node.mjs\` to build it`);
    }
  }
  return resolved;
}

function containerdConfig(dir: string, socket: string, runcRoot: string): string {
  // Written whole rather than patched from `containerd config default`: every path is the test's, no listener but
  // the socket, and the plugins that write outside the directory (opt) are off.
  const q = (s: string): string => JSON.stringify(s);
  return `version = 2
root = ${q(join(dir, 'containerd', 'root'))}
state = ${q(join(dir, 'containerd', 'state'))}
disabled_plugins = ["io.containerd.internal.v1.opt", "io.containerd.snapshotter.v1.btrfs", "io.containerd.snapshotter.v1.zfs", "io.containerd.snapshotter.v1.aufs", "io.containerd.snapshotter.v1.devmapper"]

[grpc]
  address = ${q(socket)}

[ttrpc]
  address = ""

[debug]
  address = ""

[metrics]
  address = ""

[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = ${q(SANDBOX_IMAGE)}
  # Without it every sandbox fails: runc cannot lower oom_score_adj on this VM ("can't get final child's PID").
  restrict_oom_score_adj = true
  enable_selinux = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = ${q(join(dir, 'cni', 'net.d'))}
    max_conf_num = 1
  [plugins."io.containerd.grpc.v1.cri".containerd]
    default_runtime_name = "runc"
    snapshotter = "overlayfs"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        SystemdCgroup = false
        Root = ${q(runcRoot)}
`;
}

function cniConfig(dir: string, bridge: NodeBridge): string {
  return `${JSON.stringify(
    {
      cniVersion: '0.4.0',
      name: 'cluster-probe-node',
      plugins: [
        {
          type: 'bridge',
          bridge: bridge.name,
          isGateway: true,
          // No masquerade: Pods talk to addresses on the bridge only, so no iptables rule is written.
          ipMasq: false,
          ipam: {
            type: 'host-local',
            ranges: [[{ subnet: bridge.subnet, gateway: bridge.gateway }]],
            dataDir: join(dir, 'cni', 'ipam'),
          },
        },
      ],
    },
    null,
    2,
  )}\n`;
}

/** Processes whose command line names this directory (containerd's shims outlive containerd in their own groups). */
function processesNaming(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(dir)) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/** Unmounts whatever the kubelet and containerd left mounted under dir, deepest first. */
function unmountUnder(dir: string): void {
  const mounts = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined && point.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const point of mounts) spawnSync('umount', ['-l', point]);
}

/** Network namespaces containerd's CRI made for sandboxes (cni-<uuid>); those new since start are ours. */
function sandboxNetns(): string[] {
  try {
    return readdirSync('/var/run/netns').filter((n) => n.startsWith('cni-'));
  } catch {
    return [];
  }
}

/**
 * A detached shell that outlives the test process: once that process is gone, however it died, it kills every process
 * whose command line names the node's directory (containerd's shims and their containers are not in the control
 * plane's process groups), unmounts what is left under it and deletes the bridge. The control plane's own reaper
 * kills the groups and removes the directory.
 */
function startNodeReaper(dir: string, runcRoot: string, bridge: string): ProcessGroup {
  const script =
    'while kill -0 "$1" 2>/dev/null; do sleep 1; done; ' +
    // Containers first (runc's state is outside the directory, which the other reaper removes), then every process
    // naming the directory but the reapers.
    // A sandbox's network namespace (pinned under /var/run/netns) goes with it: found by the inode of its process's.
    // The shim keeps the k8s.io namespace's containers under Root/k8s.io.
    'for id in $(runc --root "$4/k8s.io" list -q 2>/dev/null); do ' +
    'pid=$(runc --root "$4/k8s.io" state "$id" | sed -n "s/.*\\"pid\\": *\\([0-9]*\\).*/\\1/p"); ' +
    'ino=$(stat -L -c %i "/proc/$pid/ns/net" 2>/dev/null); for n in /var/run/netns/cni-*; do ' +
    '[ -n "$ino" ] && [ "$(stat -L -c %i "$n" 2>/dev/null)" = "$ino" ] && ip netns delete "${n##*/}"; done; ' +
    'runc --root "$4/k8s.io" delete --force "$id"; done; rm -rf "$4"; ' +
    'for p in /proc/[0-9]*; do c=$(tr "\\0" " " < "$p/cmdline" 2>/dev/null); case "$c" in *reaper*) ;; ' +
    '*"$5"*) kill -KILL "${p#/proc/}" 2>/dev/null ;; esac; done; ' +
    'grep -F " $2/" /proc/self/mountinfo | cut -d" " -f5 | sort -r | while read -r m; do umount -l "$m"; done; ' +
    'ip link delete "$3" 2>/dev/null; rm -f "/run/karmada-cluster-probe/$3.owner"; rm -rf "$2"; true';
  const reaper = new ProcessGroup(
    'node-reaper',
    'sh',
    ['-c', script, 'node-reaper', String(process.pid), dir, bridge, runcRoot, basename(dir)],
    '/dev/null',
  );
  reaper.unref();
  return reaper;
}

export async function startHostNode(options: HostNodeOptions): Promise<HostNode> {
  const log = options.log ?? ((line: string) => process.stderr.write(`host node: ${line}\n`));
  const binDir = resolveNodeBinDir(options.nodeBinDir);
  const started = Date.now();
  const deadline = started + (options.startTimeoutMs ?? 180_000);
  const { bridge } = options;
  const controlPlane = await startControlPlane({
    ...(options.controlPlaneBinDir !== undefined ? { binDir: options.controlPlaneBinDir } : {}),
    name: 'host',
    log: (line) => log(`kube-apiserver: ${line}`),
    ...(options.parentDir !== undefined ? { parentDir: options.parentDir } : {}),
    ...(options.keep !== undefined ? { keep: options.keep } : {}),
    startTimeoutMs: options.startTimeoutMs ?? 180_000,
  });
  const dir = controlPlane.dir;
  const netnsBefore = new Set(sandboxNetns());
  // runc's state, outside the directory: the control plane's reaper removes that, and a reaper must still find the
  // containers of a test process that died.
  const runcRoot = join('/run/karmada-cluster-probe/runc', basename(dir));
  // containerd's socket too: a unix socket path has at most 104 bytes, and the directory may be deep (dev up's).
  const reaper = startNodeReaper(dir, runcRoot, bridge.name);
  const groups: ProcessGroup[] = [];
  const adopt = (group: ProcessGroup): ProcessGroup => {
    groups.push(group);
    return controlPlane.adopt(group);
  };
  const kubectl = controlPlane.kubectl;
  const socket = join(runcRoot, 'containerd.sock');
  const ctr = (args: string[], timeout = 120_000) =>
    spawnSync('ctr', ['--address', socket, '--namespace', CONTAINERD_NAMESPACE, ...args], {
      encoding: 'utf8',
      timeout,
    });
  const named = (name: string) => groups.find((g) => g.name === name);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      const kubelet = named('kubelet');
      if (kubelet && kubelet.exitReason === undefined) {
        // The kubelet tears each Pod down (CNI DEL frees its address and veth) when it is deleted through the API.
        log('deleting every Pod, so that the kubelet removes sandboxes and their network');
        await kubectl(['delete', 'pods', '--all', '--all-namespaces', '--grace-period=2', '--timeout=60s'], {
          timeoutMs: 75_000,
        });
      }
      for (const name of ['kubelet', 'kube-scheduler', 'kube-controller-manager']) await named(name)?.stop();
      const containerd = named('containerd');
      if (containerd && containerd.exitReason === undefined) {
        const tasks = ctr(['tasks', 'ls', '-q'], 10_000).stdout?.split('\n').filter(Boolean) ?? [];
        for (const id of tasks) ctr(['tasks', 'kill', '--all', '--signal', 'SIGKILL', id], 10_000);
        for (const id of tasks) ctr(['tasks', 'delete', '--force', id], 10_000);
        await containerd.stop();
      }
      // The shim keeps each containerd namespace's containers in a directory of its own under Root.
      const namespaced = join(runcRoot, CONTAINERD_NAMESPACE);
      const left = spawnSync('runc', ['--root', namespaced, 'list', '-q'], { encoding: 'utf8' }).stdout ?? '';
      for (const id of left.split('\n').filter(Boolean)) {
        spawnSync('runc', ['--root', namespaced, 'delete', '--force', id]);
      }
      rmSync(runcRoot, { recursive: true, force: true });
      // The directory's unique name: containerd's shims name the socket, which is outside it.
      for (const pid of processesNaming(basename(dir))) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      // Sandboxes the kubelet could not tear down (it died first) keep their namespace, and with it their veth.
      for (const netns of sandboxNetns().filter((n) => !netnsBefore.has(n))) {
        spawnSync('ip', ['netns', 'delete', netns]);
      }
      unmountUnder(dir);
      reaper.killNow();
      await controlPlane.stop();
    })();
    return stopping;
  };

  try {
    for (const sub of ['containerd', 'cni/net.d', 'cni/ipam', 'kubelet', 'pod-logs', 'volume-plugins']) {
      mkdirSync(join(dir, sub), { recursive: true });
    }
    mkdirSync(runcRoot, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'containerd.toml'), containerdConfig(dir, socket, runcRoot));
    writeFileSync(join(dir, 'cni', 'net.d', '10-cluster-probe.conflist'), cniConfig(dir, bridge));

    log('starting containerd');
    const containerd = adopt(
      new ProcessGroup(
        'containerd',
        'containerd',
        ['--config', join(dir, 'containerd.toml'), '--log-level', 'warn'],
        join(dir, 'containerd.log'),
      ),
    );
    await waitFor('containerd', deadline, [containerd], () => Promise.resolve(ctr(['version'], 5_000).status === 0));
    for (const archive of options.imageArchives) {
      log(`importing ${archive} into containerd`);
      const imported = ctr(['images', 'import', '--no-unpack=false', archive], 300_000);
      if (imported.status !== 0) throw new Error(`ctr images import ${archive} failed: ${imported.stderr}`);
    }

    const kubeconfig = controlPlane.kubeconfigPath;
    const caFile = join(dir, 'ca.crt');
    log('starting kube-controller-manager and kube-scheduler');
    const kcm = adopt(
      new ProcessGroup(
        'kube-controller-manager',
        join(binDir, 'kube-controller-manager'),
        [
          `--kubeconfig=${kubeconfig}`,
          '--bind-address=127.0.0.1',
          `--secure-port=${await freePort()}`,
          '--leader-elect=false',
          `--service-account-private-key-file=${join(dir, 'sa.key')}`,
          `--root-ca-file=${caFile}`,
          '--use-service-account-credentials=false',
          '--controllers=*,-nodeipam,-service-lb-controller,-node-route-controller,-cloud-node-lifecycle-controller',
          // A Pod of a NotReady node is evicted after this long; a node test restarts nothing, so keep the default.
          '--node-monitor-grace-period=40s',
        ],
        join(dir, 'kube-controller-manager.log'),
      ),
    );
    const scheduler = adopt(
      new ProcessGroup(
        'kube-scheduler',
        join(binDir, 'kube-scheduler'),
        [
          `--kubeconfig=${kubeconfig}`,
          `--authentication-kubeconfig=${kubeconfig}`,
          `--authorization-kubeconfig=${kubeconfig}`,
          '--bind-address=127.0.0.1',
          `--secure-port=${await freePort()}`,
          '--leader-elect=false',
        ],
        join(dir, 'kube-scheduler.log'),
      ),
    );

    const kubeletConfig = {
      kind: 'KubeletConfiguration',
      apiVersion: 'kubelet.config.k8s.io/v1beta1',
      address: bridge.gateway,
      port: await freePort(),
      readOnlyPort: 0,
      healthzBindAddress: '127.0.0.1',
      healthzPort: await freePort(),
      // This VM: cgroup v1 with a v2 mount beside it, no systemd managing cgroups, swap allowed.
      cgroupDriver: 'cgroupfs',
      failCgroupV1: false,
      failSwapOn: false,
      cgroupsPerQOS: false,
      enforceNodeAllocatable: [],
      localStorageCapacityIsolation: false,
      containerRuntimeEndpoint: `unix://${socket}`,
      authentication: { anonymous: { enabled: false }, webhook: { enabled: false }, x509: { clientCAFile: caFile } },
      authorization: { mode: 'AlwaysAllow' },
      podLogsDir: join(dir, 'pod-logs'),
      volumePluginDir: join(dir, 'volume-plugins'),
      // Evict nothing for a full disk of a shared machine, collect no image (ours cannot be pulled again).
      evictionHard: { 'memory.available': '50Mi', 'nodefs.available': '1%', 'imagefs.available': '1%' },
      imageGCHighThresholdPercent: 100,
      imageGCLowThresholdPercent: 99,
      clusterDomain: 'cluster.local',
      maxPods: 30,
      shutdownGracePeriod: '0s',
    };
    writeFileSync(join(dir, 'kubelet.json'), `${JSON.stringify(kubeletConfig, null, 2)}\n`);
    log(`starting kubelet (node ${NODE_NAME} at ${bridge.gateway})`);
    const kubelet = adopt(
      new ProcessGroup(
        'kubelet',
        join(binDir, 'kubelet'),
        [
          `--config=${join(dir, 'kubelet.json')}`,
          `--kubeconfig=${kubeconfig}`,
          `--root-dir=${join(dir, 'kubelet')}`,
          `--hostname-override=${NODE_NAME}`,
          // Not a loopback address: the Pods' gateway on the bridge.
          `--node-ip=${bridge.gateway}`,
        ],
        join(dir, 'kubelet.log'),
      ),
    );
    const processes = [containerd, kcm, scheduler, kubelet];
    log(`waiting for node ${NODE_NAME} to be Ready`);
    await waitFor(`node ${NODE_NAME} Ready`, deadline, processes, async () => {
      const out = await kubectl([
        'get',
        'node',
        NODE_NAME,
        '-o',
        'jsonpath={.status.conditions[?(@.type=="Ready")].status}',
      ]);
      return out.code === 0 && out.stdout.trim() === 'True';
    });
    // Pods are admitted only once the ServiceAccount controller made `default`, and scheduled once the node lifecycle
    // controller lifted the not-ready taint.
    await waitFor('ServiceAccount default/default', deadline, processes, async () => {
      return (await kubectl(['get', 'serviceaccount', 'default', '-n', 'default'])).code === 0;
    });
    await waitFor(`node ${NODE_NAME} without the not-ready taint`, deadline, processes, async () => {
      const out = await kubectl(['get', 'node', NODE_NAME, '-o', 'jsonpath={.spec.taints[*].key}']);
      return out.code === 0 && !out.stdout.includes('node.kubernetes.io/not-ready');
    });
    log(`node ${NODE_NAME} Ready in ${((Date.now() - started) / 1000).toFixed(1)}s`);

    return {
      controlPlane,
      nodeName: NODE_NAME,
      bridge,
      dir,
      kubectl,
      podLogs(namespace: string, podPrefix: string, lines = 40): string {
        const root = join(dir, 'pod-logs');
        const out: string[] = [];
        for (const pod of readdirSync(root).filter((p) => p.startsWith(`${namespace}_${podPrefix}`))) {
          for (const container of readdirSync(join(root, pod))) {
            for (const file of readdirSync(join(root, pod, container)).sort()) {
              const text = readFileSync(join(root, pod, container, file), 'utf8')
                .trimEnd()
                .split('\n');
              out.push(`--- ${pod}/${container}/${file} ---`, ...text.slice(-lines));
            }
          }
        }
        return out.join('\n');
      },
      failure(): string | undefined {
        const dead = processes.find((g) => g.exitReason !== undefined);
        return dead ? `${dead.name} ${dead.exitReason}` : undefined;
      },
      pids: () => controlPlane.pids(),
      tagImage(source: string, target: string): void {
        const tagged = ctr(['images', 'tag', '--force', source, target], 30_000);
        if (tagged.status !== 0) throw new Error(`ctr images tag ${source} ${target} failed: ${tagged.stderr}`);
      },
      componentLogs(lines = 30): string {
        return processes.map((g) => `--- ${g.name} (${g.logPath}) ---\n${g.logTail(lines)}`).join('\n');
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
