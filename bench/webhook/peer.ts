// The Go webhook peer (bench/webhook/peer/main.go: controller-runtime's admission.Webhook over Karmada's own Cluster
// validation and mutation), for the webhook bench and for the test that it answers as it should: its binary, built by
// scripts/build-oracle.mjs --webhook-peer when missing, and the peer started as a child process pinned to one core.
// Must not depend on the webhook under test (src/webhook): the peer is the other side of the comparison.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';

const repo = path.resolve(import.meta.dirname, '../..');
const BUILD_ARGS = ['scripts/build-oracle.mjs', '--webhook-peer'];

/**
 * The peer's binary: CLUSTER_PROBE_WEBHOOK_PEER when set (a binary to compare against or test instead), else the
 * cached build, built now when missing. A failed build is an error naming the command, never a skipped baseline.
 */
export function webhookPeerBinary(): string {
  const given = process.env.CLUSTER_PROBE_WEBHOOK_PEER;
  if (given) return path.resolve(given);
  const command = `node ${BUILD_ARGS.join(' ')}`;
  const built = spawnSync(process.execPath, BUILD_ARGS, {
    cwd: repo,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'], // its progress lines go to our stderr
  });
  if (built.error)
    throw new Error(`building the Go webhook peer: \`${command}\` could not run: ${built.error.message}`);
  const binary = built.stdout.trim().split('\n').pop() ?? '';
  if (built.status !== 0 || binary === '') {
    throw new Error(
      `building the Go webhook peer failed: \`${command}\` (in ${repo}) exited with ${String(built.status ?? built.signal)}; its output is above`,
    );
  }
  return binary;
}

export interface PeerOptions {
  /** The CPU to pin the peer to with taskset; undefined: the last one. */
  cpu?: number;
  /** GOMAXPROCS (the peer's -procs); 1 unless told otherwise. */
  procs?: number;
  /** The peer's -mutation: `strategy` (Karmada's Cluster strategy, the default) or `canonicalize`. */
  mutation?: 'strategy' | 'canonicalize';
}

export interface StartedPeer {
  child: ChildProcess;
  port: number;
  /** How the peer is held to one core, for the bench's header. */
  pinning: string;
}

function hasTaskset(): boolean {
  const probe = spawnSync('taskset', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/** Starts the peer on a free port with the serving pair of certDir (tls.crt, tls.key). */
export async function startWebhookPeer(
  binary: string,
  certDir: string,
  options: PeerOptions = {},
): Promise<StartedPeer> {
  const procs = options.procs ?? 1;
  const peerArgs = [
    '-cert',
    path.join(certDir, 'tls.crt'),
    '-key',
    path.join(certDir, 'tls.key'),
    '-port',
    '0',
    '-procs',
    String(procs),
    '-mutation',
    options.mutation ?? 'strategy',
  ];
  const cpu = options.cpu ?? cpus().length - 1;
  // taskset execs the peer, so the child's pid is the peer's own (its CPU time is read from /proc by that pid).
  const pinned = procs === 1 && hasTaskset();
  const [command, args] = pinned ? ['taskset', ['-c', String(cpu), binary, ...peerArgs]] : [binary, peerArgs];
  const pinning = pinned
    ? `taskset -c ${cpu}, GOMAXPROCS=1`
    : `GOMAXPROCS=${procs}${procs === 1 ? ' (no taskset here: not pinned to a core)' : ''}`;
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the webhook peer (${binary}) did not start in 20 s`)), 20_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`starting the webhook peer ${binary}: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the webhook peer ${binary} exited with ${String(code ?? signal)} before serving`));
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve((JSON.parse(line) as { port: number }).port);
      } catch {
        reject(new Error(`the webhook peer printed ${JSON.stringify(line)}, not {"port":N}`));
      }
    });
  });
  child.removeAllListeners('exit');
  return { child, port, pinning };
}
