// `cluster-probe reconcile`: probes every Cluster (or one, in Pull mode) and writes the Healthy condition, Events and
// the unhealthy taint; serves /healthz, /readyz, /metrics over plain HTTP; stops cleanly on SIGTERM/SIGINT (workers
// stopped, lease released, exit 0). Thin: flags in, the Manager from src/reconciler out. The reconciler (and its
// Kubernetes client) and the logger are loaded when the command runs, not when it is registered.
import { hostname } from 'node:os';
import { DEFAULT_DENY_LIST } from '@karmada-cluster-probe/probe/internal/address-guard.js';
import { collectCidr } from './cidr-option.js';
import { withPriority } from '../kube/client.js';
import { boundHeapGrowth } from './heap-growth.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Logger } from 'pino';
import { TAINT_EFFECTS, type TaintEffectOption } from '../reconciler/desired-state.js';
import { DISRUPTION_DEFAULTS } from '../facts/disruption.js';
import { parseCeiling, parseFailureDomain } from '../reconciler/disruption.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';
import {
  FLAG_DEFAULTS,
  SHARDING_MODES,
  checkSharding,
  type ReconcileFlags,
  type ShardingMode,
} from './reconcile-flags.js';

export { SHARDING_MODES, checkSharding, type ShardingMode };

/** --sharding: none (one active replica, or static --shard-index/--shard-count) or lease (docs/sharding.md). */
export function parseSharding(value: string): ShardingMode {
  const mode = SHARDING_MODES.find((m) => m === value);
  if (mode === undefined) throw new InvalidArgumentError(`must be none or lease, not "${value}"`);
  return mode;
}

function wrap<T>(parse: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return parse(value);
    } catch (err) {
      throw new InvalidArgumentError(messageOf(err));
    }
  };
}

function ratio(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new InvalidArgumentError('must be a number above 0 and at most 1');
  return n;
}

function rate(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 1000)
    throw new InvalidArgumentError('must be a number of verdicts a second between 0 and 1000');
  return n;
}

function bool(value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError(`must be true or false, not "${value}"`);
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`must be an integer between ${min} and ${max}`);
    return n;
  };
}

function seconds(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < min || n > max)
      throw new InvalidArgumentError(`must be a number of seconds between ${min} and ${max}`);
    return n;
  };
}

/**
 * --taint-effect: a taint effect, or None for condition-only mode (any case: `None` reads like the Kubernetes effects
 * beside it, `none` is what earlier releases documented).
 */
export function parseTaintEffect(value: string): TaintEffectOption {
  if (value.toLowerCase() === 'none') return 'none';
  const effect = TAINT_EFFECTS.find((e) => e === value);
  if (effect === undefined)
    throw new InvalidArgumentError(`must be NoSchedule, NoExecute or None (condition-only), not "${value}"`);
  return effect;
}

const EXAMPLES = `
Which apiserver:
  --kubeconfig names the apiserver that serves the Cluster objects. On Karmada that is karmada-apiserver, not the
  host cluster the reconciler runs in: mount karmada-apiserver's kubeconfig from a Secret mounted into the Pod (as
  Karmada's own components do, e.g. the Secret karmada-kubeconfig) and pass its path. Without --kubeconfig: the
  KUBECONFIG variable, then ~/.kube/config, then in-cluster config (the Pod's ServiceAccount, right only where the
  Clusters live in the Pod's own cluster). The identity needs clusters get/list/watch/patch, clusters/status patch,
  secrets get/list/watch, events create/patch and (with --leader-elect or --sharding lease) leases there.

Condition-only mode (--taint-effect None):
  Only the Healthy condition (and its Events) is written; spec.taints is never read or written, not even a
  cluster.karmada.io/unhealthy taint: Karmada's ClusterTaintPolicy (Karmada 1.14+) then turns Healthy=False into a
  taint and removes it on Healthy=True. Switching an installation to None leaves any taint it added earlier in place
  (a ClusterTaintPolicy for the same key and effect takes it over).

ClusterProfiles (--cluster-profile-namespace NS, off by default):
  A second small controller writes a ClusterProfile (multicluster.x-k8s.io/v1alpha1) per Cluster in NS on the same
  apiserver, while this replica leads: ControlPlaneHealthy from Karmada's Ready and our Healthy (a withheld verdict is
  Unknown, never False), our own condition cluster-probe.karmada.io/LivenessProbe, written only on change, deleted
  with the Cluster; on a profile another manager made, only our condition. karmada-cluster (a namespace Karmada
  reserves) keeps them from ever being propagated to members. The identity needs clusterprofiles
  get/list/watch/create/patch/delete and clusterprofiles/status patch in NS.

When the prober is the thing that broke (the disruption guard, on by default):
  A failure verdict moves workloads for the whole federation, so it is first checked against the fleet, from the
  latest raw probe results. Every Cluster this replica judges failing at once (from two up), or a --sentinel
  failing: the prober blames itself, adds no taint, lifts the taints it added, and writes Healthy=Unknown, reason
  ProberDisrupted (written verdicts are lifted once every Cluster, or the sentinel, has failed its threshold in a
  row); on recovery every Cluster needs a fresh run of failures before a new taint. More Clusters failing
  than --max-unhealthy: new verdicts are held (TooManyUnhealthy). A partially disrupted failure domain (at least
  --unhealthy-domain-threshold of it, and more than 2, failing): evicting verdicts (NoExecute, or None where a
  ClusterTaintPolicy may make one) at --partial-disruption-rate, none in a domain smaller than --large-domain-size
  (DomainPartiallyDisrupted); NoSchedule taints are not held there. A fully failed domain while Clusters elsewhere
  answer gets its NoSchedule taints at once, even past --max-unhealthy. --disruption-guard=false writes every verdict at once: a broken network, DNS or credentials on
  the prober's side then taints every Cluster. See docs/reconciler.md.

Examples:
  # On Karmada, in the host cluster, karmada-apiserver's kubeconfig mounted from a Secret
  cluster-probe reconcile --kubeconfig /etc/karmada/config/karmada.config --leader-elect --metrics-host 0.0.0.0

  # Condition only: a ClusterTaintPolicy owns the taint
  cluster-probe reconcile --kubeconfig /etc/karmada/config/karmada.config --taint-effect None

  # Failure domains from a label, a sentinel outside every member, at most 10 Clusters tainted at once
  cluster-probe reconcile --failure-domain label=topology.kubernetes.io/region --max-unhealthy 10 \\
    --sentinel https://status.example.com/healthz

  # N replicas, every one active, the Clusters spread over them and moved when one joins, leaves or dies
  # (each needs leases get/list/watch/create/update/delete in --lease-namespace; docs/sharding.md)
  cluster-probe reconcile --kubeconfig /etc/karmada/config/karmada.config --sharding lease --identity "$POD_NAME"

  # Pull mode: an agent inside the member for its one Cluster
  cluster-probe reconcile --kubeconfig /etc/karmada/config/karmada.config --cluster-name member1

  # Also publish every Cluster as a Cluster Inventory API ClusterProfile (the CRD installed: docs/cluster-profile.md)
  cluster-probe reconcile --kubeconfig /etc/karmada/config/karmada.config --cluster-profile-namespace karmada-cluster
`;

async function createLogger(level: string): Promise<Logger> {
  const { pino } = await import('pino');
  return pino({
    level,
    base: { component: 'cluster-probe-reconciler' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Probe messages never carry secrets; these paths are belt and braces.
    redact: { paths: ['token', 'caBundle', '*.token', '*.caBundle', 'credentials'], censor: '[redacted]' },
  });
}

async function runReconcile(flags: ReconcileFlags): Promise<void> {
  const { reconcilerOptionsFromFlags } = await import('./reconcile-options.js');
  const plan = reconcilerOptionsFromFlags(flags, `${hostname()}_${process.pid}`);
  boundHeapGrowth();
  const [log, { Manager, createMetrics, loadKubeConfig, startHealthServer, writeExposition }] = await Promise.all([
    createLogger(flags.logLevel),
    import('../reconciler/index.js'),
  ]);
  let kubeConfig;
  try {
    kubeConfig = loadKubeConfig(flags.kubeconfig);
  } catch (err) {
    const reason =
      err instanceof Error
        ? err.message.replace(/^ENOENT: no such file or directory, open .*$/, 'no such file')
        : String(err);
    throw new Error(
      `${flags.kubeconfig === undefined ? 'the default kubeconfig (KUBECONFIG, ~/.kube/config)' : `--kubeconfig ${flags.kubeconfig}`}: cannot load: ${reason}`,
    );
  }
  const metrics = createMetrics({ defaultMetrics: true });
  const manager = new Manager({ ...plan.options, kubeConfig, log, metrics });
  // The ClusterProfile producer (off unless --cluster-profile-namespace): a runnable of the Manager, on its client,
  // writing only while this replica leads, for the Clusters it owns (docs/cluster-profile.md).
  const namespace = plan.profileNamespace;
  if (namespace !== undefined) {
    const { ProfileController, propagationSkipped } = await import('../profile/index.js');
    if (propagationSkipped(namespace) === undefined)
      log.warn(
        { namespace },
        'ClusterProfiles go to a namespace Karmada may propagate from: add it to karmada-controller-manager --skipped-propagating-namespaces, or use karmada-cluster (docs/cluster-profile.md)',
      );
    const controller = new ProfileController({
      // The Manager's client, behind the reconciler's own requests in its rate limit (a verdict never waits for a
      // profile).
      api: withPriority(manager.api, 'low'),
      namespace,
      log,
      isLeader: () => manager.isLeader,
      // The Clusters this replica probes now, looked at again whenever they may have moved (Lease sharding).
      owns: (name) => manager.ownsNow(name),
      ownershipEpoch: () => manager.ownershipEpoch,
      onWrite: (kind, outcome) => metrics.writes.inc({ kind, outcome }),
      onWatchRestart: (resource, reason) => metrics.watchRestarts.inc({ resource, reason }),
      resyncMs: flags.resync * 1000,
    });
    manager.add({
      name: 'cluster-profiles',
      // It runs on every replica (its informers warm for a takeover), asking the Manager what it may write.
      needLeaderElection: false,
      start: () => {
        controller.start();
        log.info({ namespace }, 'writing a ClusterProfile for every Cluster');
      },
      stop: () => controller.stop(),
    });
  }
  let server: Awaited<ReturnType<typeof startHealthServer>> | undefined;
  manager.add({
    name: 'health-server',
    needLeaderElection: false,
    server: true,
    start: async () => {
      server = await startHealthServer({
        host: plan.health.host,
        port: plan.health.port,
        registry: metrics.registry,
        ready: () => manager.ready,
        exposition: (write, stopped) => writeExposition(metrics, write, stopped),
      });
      log.info({ address: `http://${plan.health.host}:${server.port}` }, 'serving /healthz, /readyz, /metrics');
    },
    stop: async () => server?.close(),
  });
  await manager.start();

  await new Promise<void>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (stopping) return;
      stopping = true;
      log.info({ signal }, 'stopping');
      const force = setTimeout(() => {
        log.error({}, 'stop took longer than 20 s; exiting');
        process.exit(1);
      }, 20_000);
      force.unref();
      manager.stop().then(
        () => {
          clearTimeout(force);
          process.off('SIGTERM', onSignal);
          process.off('SIGINT', onSignal);
          resolve();
        },
        (err: unknown) => {
          log.error({ err: messageOf(err) }, 'stop failed');
          process.exitCode = 1;
          resolve();
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  log.flush();
}

export function register(program: Command): void {
  program
    .command('reconcile')
    .description(
      'probe every Cluster and set its Healthy condition, Events and the cluster.karmada.io/unhealthy taint on transitions',
    )
    .option(
      '--kubeconfig <path>',
      "kubeconfig of the apiserver serving the Clusters: on Karmada, karmada-apiserver's (a Secret mounted into the Pod); default: KUBECONFIG, ~/.kube/config, then in-cluster config",
    )
    .addOption(
      new Option(
        '--taint-effect <effect>',
        'NoSchedule or NoExecute: the effect of the cluster.karmada.io/unhealthy taint on a failing Cluster; None: condition-only, taints never touched (for a Karmada ClusterTaintPolicy)',
      )
        .argParser(parseTaintEffect)
        .default('NoSchedule'),
    )
    .option('--leader-elect', 'elect one active replica through a coordination.k8s.io Lease', false)
    .addOption(
      new Option(
        '--sharding <mode>',
        'none: one active replica (with --leader-elect) or static --shard-index/--shard-count; lease: every replica active, the Clusters spread over the live replicas by their member Leases and moved without a restart when one joins, leaves or dies (docs/sharding.md)',
      )
        .argParser(parseSharding)
        .default('none'),
    )
    .option(
      '--lease-namespace <ns>',
      'namespace of the Lease (with --sharding lease: of every member Lease)',
      FLAG_DEFAULTS.leaseNamespace,
    )
    .option(
      '--lease-name <name>',
      'name of the Lease (the shard or Pull-mode cluster is appended); with --sharding lease the group name, each member Lease named <name>-<identity>',
      FLAG_DEFAULTS.leaseName,
    )
    .option(
      '--lease-duration <seconds>',
      'how long a follower waits before taking over',
      seconds(1, 600),
      FLAG_DEFAULTS.leaseDuration,
    )
    .option(
      '--renew-deadline <seconds>',
      'how long the leader retries renewal before giving up (default 2/3 of the lease)',
      seconds(0.5, 600),
    )
    .option('--retry-period <seconds>', 'interval of lease attempts (default lease duration / 7.5)', seconds(0.1, 60))
    .option('--identity <id>', 'this replica in the Lease and in Events (default hostname_pid)')
    .option('--cluster-name <name>', 'Pull mode: probe only this Cluster (an agent inside the member)')
    .option(
      '--include-pull-clusters',
      'also probe syncMode Pull Clusters from here (by default their in-member agent, --cluster-name, does)',
      false,
    )
    .option(
      '--shard-index <i>',
      "this replica's shard (with --shard-count): Clusters whose name hashes here",
      integer(0, 1023),
    )
    .option('--shard-count <n>', 'number of shards', integer(1, 1024))
    .option(
      '--metrics-port <port>',
      'port of /healthz, /readyz, /metrics (0 picks one)',
      integer(0, 65535),
      FLAG_DEFAULTS.metricsPort,
    )
    .option(
      '--metrics-host <address>',
      'address of /healthz, /readyz, /metrics (0.0.0.0 in a pod)',
      FLAG_DEFAULTS.metricsHost,
    )
    .option('--probe-concurrency <n>', 'most probes in flight', integer(1, 100_000), FLAG_DEFAULTS.probeConcurrency)
    .option(
      '--write-concurrency <n>',
      'most Clusters reconciled at once',
      integer(1, 1024),
      FLAG_DEFAULTS.writeConcurrency,
    )
    .option(
      '--cluster-profile-namespace <namespace>',
      "also publish every Cluster as a Cluster Inventory API ClusterProfile (multicluster.x-k8s.io/v1alpha1) in this namespace of the same apiserver, its ControlPlaneHealthy from our verdict and Karmada's Ready; off when not given; karmada-cluster keeps them from being propagated (docs/cluster-profile.md)",
    )
    .option(
      '--resync <seconds>',
      'full relist and reconcile of every Cluster',
      seconds(10, 86_400),
      FLAG_DEFAULTS.resync,
    )
    .option(
      '--kube-api-qps <n>',
      'client-side rate limit to the apiserver',
      integer(1, 100_000),
      FLAG_DEFAULTS.kubeApiQps,
    )
    .option(
      '--kube-api-burst <n>',
      'client-side burst to the apiserver',
      integer(1, 100_000),
      FLAG_DEFAULTS.kubeApiBurst,
    )
    .option(
      '--deny-cidr <cidr>',
      `address range probes may never connect to, checked after DNS; repeatable, replaces the default (${DEFAULT_DENY_LIST.join(', ')})`,
      collectCidr,
    )
    .addOption(
      new Option(
        '--disruption-guard <bool>',
        'true: withhold failure verdicts when the prober itself looks broken, or too many Clusters fail at once; false: write every verdict at once',
      )
        .argParser(bool)
        .default(DISRUPTION_DEFAULTS.enabled),
    )
    .addOption(
      new Option(
        '--failure-domain <mode>',
        'how Clusters are grouped into failure domains: topology (spec.region, then spec.zones or spec.zone), region, label=KEY, or none (one domain)',
      )
        .argParser(wrap(parseFailureDomain))
        .default(parseFailureDomain(DISRUPTION_DEFAULTS.failureDomain), DISRUPTION_DEFAULTS.failureDomain),
    )
    .addOption(
      new Option(
        '--unhealthy-domain-threshold <ratio>',
        'share of a domain failing (with more than 2 failing) that makes it partially disrupted',
      )
        .argParser(ratio)
        .default(DISRUPTION_DEFAULTS.unhealthyDomainThreshold),
    )
    .addOption(
      new Option(
        '--large-domain-size <n>',
        'a partially disrupted domain with fewer judged Clusters gets no evicting verdict at all',
      )
        .argParser(integer(1, 1_000_000))
        .default(DISRUPTION_DEFAULTS.largeDomainSize),
    )
    .addOption(
      new Option(
        '--partial-disruption-rate <per-second>',
        'evicting verdicts a second in a large, partially disrupted domain',
      )
        .argParser(rate)
        .default(DISRUPTION_DEFAULTS.partialDisruptionRate),
    )
    .addOption(
      new Option(
        '--max-unhealthy <n|percent>',
        'most Clusters failing fleet-wide (a count, or a percentage of those judged, never below 1) before new verdicts are held',
      )
        .argParser(wrap(parseCeiling))
        .default(parseCeiling(DISRUPTION_DEFAULTS.maxUnhealthy), DISRUPTION_DEFAULTS.maxUnhealthy),
    )
    .option(
      '--sentinel <url>',
      'a target outside every member that must always answer (http://, https://, tcp://HOST:PORT); when it fails, no new verdict is written; repeatable',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .option(
      '--sentinel-period <seconds>',
      'how often sentinels are probed',
      seconds(1, 3600),
      DISRUPTION_DEFAULTS.sentinelPeriodSeconds,
    )
    .option(
      '--sentinel-timeout <seconds>',
      'timeout of a sentinel probe',
      seconds(1, 600),
      DISRUPTION_DEFAULTS.sentinelTimeoutSeconds,
    )
    .addOption(
      new Option('--log-level <level>', 'log level').choices(['debug', 'info', 'warn', 'error']).default('info'),
    )
    .addHelpText('after', EXAMPLES)
    .action(async (flags: ReconcileFlags) => {
      try {
        await runReconcile(flags);
      } catch (err) {
        process.stderr.write(`cluster-probe reconcile: ${messageOf(err)}\n`);
        process.exitCode = 2;
      }
    });
}
