// `cluster-probe dev up|down`: a local playground (kube-apiserver, etcd, the Cluster CRD and the webhook) for trying
// the webhook with kubectl, and its clean-up. Thin: flags and exit codes; the work is in src/dev/playground.ts.
import { Command, InvalidArgumentError, Option } from 'commander';
import { devDown, devUp } from '../dev/playground.js';
import { statePath } from '../dev/state.js';

interface UpFlags {
  probeLocation: 'field' | 'annotation';
  port?: number;
}

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError('must be an integer from 1 to 65535');
  return n;
}

export function register(program: Command): void {
  const dev = program
    .command('dev')
    .description('a local playground: kube-apiserver, etcd, the Cluster CRD and the webhook, on 127.0.0.1')
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe dev up                 # builds kube-apiserver and etcd on first use, then runs until Ctrl-C
  $ export KUBECONFIG=~/.cache/karmada-cluster-probe/dev/kubeconfig
  $ kubectl apply -f test/fixtures/clusters/member-legacy.yaml
  $ cluster-probe dev down               # from another terminal, or after a playground was left behind

The state of a running playground is kept in ${statePath()}.`,
    );

  dev
    .command('up')
    .description('start the playground and print its kubeconfig and a sample kubectl apply; runs until Ctrl-C')
    .addOption(
      new Option('--probe-location <where>', 'passed to serve: spec.livenessProbe or the liveness-probe annotation')
        .choices(['field', 'annotation'])
        .default('field'),
    )
    .option('--port <port>', 'port of the webhook on 127.0.0.1 (default: a free one)', port)
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe dev up
  $ cluster-probe dev up --probe-location annotation   # as on a Karmada whose Cluster API drops the field
  $ CLUSTER_PROBE_CONTROLPLANE_BIN=/opt/k8s/bin cluster-probe dev up   # use these kube-apiserver and etcd`,
    )
    .action(async (flags: UpFlags) => {
      process.exitCode = await devUp({
        probeLocation: flags.probeLocation,
        ...(flags.port !== undefined ? { port: flags.port } : {}),
      });
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
      await devDown();
      process.exitCode = 0;
    });
}
