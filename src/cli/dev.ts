// `cluster-probe dev up|down|nodes`: a local playground for trying the project with kubectl: a real Karmada with
// members (`--karmada`), or a kube-apiserver serving Cluster from our CRD; and its clean-up. Thin: flags and exit
// codes; the work is in src/dev/playground.ts and src/dev/karmada-playground.ts, loaded when a subcommand runs.
import { Command, InvalidArgumentError } from 'commander';
import { probeLocationOption } from './probe-location-option.js';
import { statePath } from '../dev/state.js';

interface UpFlags {
  probeLocation: 'field' | 'annotation';
  port?: number;
  karmada: boolean;
  members: number;
  admission: boolean;
  host: boolean;
}

function memberCount(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 5) throw new InvalidArgumentError('must be an integer from 1 to 5');
  return n;
}

function readyValue(value: string): boolean {
  if (value === 'true' || value === 'True') return true;
  if (value === 'false' || value === 'False') return false;
  throw new InvalidArgumentError('must be true or false');
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be an integer from 1 to 65535');
  return n;
}

export function register(program: Command): void {
  const dev = program
    .command('dev')
    .description('a local playground on 127.0.0.1: a real Karmada with members, or a kube-apiserver with our CRD')
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe dev up --karmada       # Karmada v1.18.2 + 2 members, webhook, reconciler; prints a walkthrough
  $ cluster-probe dev nodes member1 --ready=false   # every node of member1 NotReady: it gets tainted
  $ cluster-probe dev up                 # builds kube-apiserver and etcd on first use, then runs until Ctrl-C
  $ export KUBECONFIG=~/.cache/karmada-cluster-probe/dev/kubeconfig
  $ kubectl apply -f test/fixtures/clusters/member-legacy.yaml
  $ cluster-probe dev down               # from another terminal, or after a playground was left behind

The state of a running playground is kept in ${statePath()}.`,
    );

  dev
    .command('up')
    .description('start the playground and print its kubeconfig and a sample kubectl apply; runs until Ctrl-C')
    .addOption(probeLocationOption('passed to serve: spec.livenessProbe or the liveness-probe annotation'))
    .option('--port <port>', 'port of the webhook on 127.0.0.1 (default: a free one)', port)
    .option(
      '--karmada',
      'a real Karmada control plane (built from source on first use, 10-25 minutes) with member clusters, instead ' +
        'of a kube-apiserver serving Cluster from our CRD; probes travel in the liveness-probe annotation',
      false,
    )
    .option('--members <n>', 'with --karmada: member kube-apiservers joined as Push Clusters', memberCount, 2)
    .option(
      '--admission',
      'with --karmada: run karmada-aggregated-apiserver with the admission patch (docs/karmada-admission.md), so ' +
        'our webhook sees Cluster writes; stock Karmada calls no webhook for them',
      false,
    )
    .option(
      '--host',
      "with --karmada: Karmada's host cluster as a real one-node Kubernetes (kubelet, containerd, a bridge; root) " +
        'running the image built from the Dockerfile, the chart installed on both with helm; prints the helm lines',
      false,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe dev up --karmada                    # what a Karmada user sees: stock Karmada, 2 members
  $ sudo cluster-probe dev up --karmada --host        # and the chart on a real host cluster, as an operator installs it
  $ cluster-probe dev up --karmada --members 3 --admission
  $ cluster-probe dev up
  $ cluster-probe dev up --probe-location annotation   # as on a Karmada whose Cluster API drops the field
  $ CLUSTER_PROBE_CONTROLPLANE_BIN=/opt/k8s/bin cluster-probe dev up   # use these kube-apiserver and etcd`,
    )
    .action(async (flags: UpFlags, command: Command) => {
      if (!flags.karmada && (flags.admission || flags.members !== 2 || flags.host)) {
        // Thrown from an action, commander's InvalidArgumentError would end the run with no word: say it, as a parse
        // error is said.
        command.error('error: --members, --admission and --host go with --karmada', { exitCode: 2 });
      }
      if (flags.host && flags.admission) {
        command.error('error: --host runs stock Karmada; --admission goes without it', { exitCode: 2 });
      }
      if (flags.karmada && flags.host) {
        const { devUpKarmadaHost } = await import('../dev/host-playground.js');
        process.exitCode = await devUpKarmadaHost({ members: flags.members });
        return;
      }
      if (flags.karmada) {
        if (flags.probeLocation === 'field' && command.getOptionValueSource('probeLocation') === 'cli') {
          command.error(
            'error: --probe-location field cannot work with --karmada: karmada-aggregated-apiserver drops spec.livenessProbe',
            { exitCode: 2 },
          );
        }
        const { devUpKarmada } = await import('../dev/karmada-playground.js');
        process.exitCode = await devUpKarmada({ members: flags.members, admission: flags.admission });
        return;
      }
      const { devUp } = await import('../dev/playground.js');
      process.exitCode = await devUp({
        probeLocation: flags.probeLocation,
        ...(flags.port !== undefined ? { port: flags.port } : {}),
      });
    });

  dev
    .command('nodes')
    .description('set the Ready condition of every Node of a member of the running `dev up --karmada` playground')
    .argument('<member>', 'the member Cluster, e.g. member1')
    .requiredOption('--ready <bool>', 'true: nodes Ready; false: nodes NotReady (as a dead kubelet would)', readyValue)
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe dev nodes member1 --ready=false   # the reconciler taints member1 within failureThreshold x period
  $ cluster-probe dev nodes member1 --ready=true    # and removes the taint again

The same with kubectl: kubectl --kubeconfig MEMBER-KUBECONFIG patch node NODE --subresource=status --type=merge \\
  -p '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"KubeletNotReady"}]}}'`,
    )
    .action(async (member: string, flags: { ready: boolean }) => {
      const { devNodes } = await import('../dev/karmada-playground.js');
      process.exitCode = await devNodes(member, flags.ready, (line) =>
        process.stderr.write(`cluster-probe dev: ${line}\n`),
      );
    });

  dev
    .command('down')
    .description('stop a playground (also one whose terminal is gone) and remove its files')
    .addHelpText(
      'after',
      `
Example:
  $ cluster-probe dev down`,
    )
    .action(async () => {
      const { devDown } = await import('../dev/playground.js');
      await devDown();
      process.exitCode = 0;
    });
}
