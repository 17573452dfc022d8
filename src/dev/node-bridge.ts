// The one network the local node uses: a Linux bridge this module creates, with a private /24 whose first address is
// the gateway (the node's address, and the address the apiservers Pods call are bound to). Nothing else on the machine
// is touched: no masquerade, no iptables rule, no route but the bridge's own. A bridge left by an earlier run whose
// owner is gone is deleted first; one whose owner still runs is refused (two runs would black-hole each other's Pods).
// Needs root and `ip` (iproute2). Knows nothing of Kubernetes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface NodeBridge {
  /** The link's name, e.g. cprobe0. */
  name: string;
  /** The Pod range, e.g. 10.244.77.0/24. */
  subnet: string;
  /** The bridge's own address: the gateway of every Pod and the node's InternalIP. */
  gateway: string;
  /** Deletes the bridge and its owner record. Safe to call twice. */
  remove(): void;
}

export interface BridgeOptions {
  /** Default cprobe0. */
  name?: string;
  /** The third octet of 10.244.X.0/24; default 77. */
  octet?: number;
  /** Where the owner record lives; default /run/karmada-cluster-probe. */
  runDir?: string;
  log?: (line: string) => void;
}

function ip(args: string[]): { status: number; out: string } {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.error) throw new Error(`ip ${args.join(' ')}: ${r.error.message} (is iproute2 installed?)`);
  return { status: r.status ?? -1, out: `${r.stdout}${r.stderr}`.trim() };
}

function mustIp(args: string[]): string {
  const r = ip(args);
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')} failed: ${r.out}`);
  return r.out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the bridge (after removing a leftover of a run that is gone) and records this process as its owner. */
export function createNodeBridge(options: BridgeOptions = {}): NodeBridge {
  const name = options.name ?? 'cprobe0';
  const octet = options.octet ?? 77;
  const subnet = `10.244.${octet}.0/24`;
  const gateway = `10.244.${octet}.1`;
  const runDir = options.runDir ?? '/run/karmada-cluster-probe';
  const owner = join(runDir, `${name}.owner`);
  const log = options.log ?? (() => undefined);

  if (ip(['link', 'show', name]).status === 0) {
    let pid = 0;
    try {
      pid = Number(readFileSync(owner, 'utf8').trim());
    } catch {
      // no record: a leftover of a run that died before writing it, or of an older version
    }
    if (pid > 0 && pid !== process.pid && alive(pid)) {
      throw new Error(
        `bridge ${name} belongs to process ${pid}, which is still running (another node test?): wait for it, ` +
          `or stop it; ${owner} records the owner`,
      );
    }
    log(`deleting the leftover bridge ${name} of an earlier run`);
    mustIp(['link', 'delete', name]);
  }
  // Any other route to the range would take the Pods' traffic ("no route to host" from the kubelet's probes).
  const routes = mustIp(['route', 'show', subnet]);
  if (routes !== '') {
    throw new Error(`${subnet} is already routed (${routes}): remove that route or pick another range (octet)`);
  }
  mkdirSync(runDir, { recursive: true });
  writeFileSync(owner, `${process.pid}\n`);
  try {
    mustIp(['link', 'add', name, 'type', 'bridge']);
    mustIp(['addr', 'add', `${gateway}/24`, 'dev', name]);
    mustIp(['link', 'set', name, 'up']);
  } catch (err) {
    ip(['link', 'delete', name]);
    rmSync(owner, { force: true });
    throw err;
  }
  log(`bridge ${name} ${gateway}/24 up`);
  let removed = false;
  return {
    name,
    subnet,
    gateway,
    remove(): void {
      if (removed) return;
      removed = true;
      if (ip(['link', 'show', name]).status === 0) ip(['link', 'delete', name]);
      rmSync(owner, { force: true });
    },
  };
}
