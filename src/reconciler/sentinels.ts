// Sentinels (`--sentinel`): targets outside every member that must always answer. The reconciler probes them like a
// Cluster (same engine, same address policy) and, when one fails, blames itself before any member: the disruption
// guard then withholds new failure verdicts, and lifts written ones once the sentinel failed its threshold in a row.
// URLs: http(s)://host[:port][/path] (an httpGet) or tcp://host:port.
import { ProbeScheduler, runProbe, type Clock, type LivenessProbe } from '@karmada-cluster-probe/probe';
import { validateProbe, type LivenessProbeHandlers, type LivenessProbeTiming } from '@karmada-cluster-probe/schema';
import type { DisruptionGuard } from './disruption-guard.js';

export interface Sentinel {
  /** How it is shown (metric label, log, condition message): the URL without its query. */
  name: string;
  probe: LivenessProbe;
}

const ACCEPTED = 'give http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH or tcp://HOST:PORT';

/**
 * The probe a sentinel URL stands for, checked as a Cluster's probe would be (ports, hosts, the deny list); throws a
 * message that says what is wrong and what is accepted.
 */
export function parseSentinel(
  value: string,
  timing: { periodSeconds: number; timeoutSeconds: number },
  denyList?: readonly string[],
): Sentinel {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`"${value}" is not a URL: ${ACCEPTED}`);
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw new Error(`"${value}" has no host: ${ACCEPTED}`);
  if (url.username !== '' || url.password !== '')
    throw new Error(`"${url.protocol}//${url.host}": credentials in a sentinel URL are not supported`);
  const probe: LivenessProbeHandlers & LivenessProbeTiming = { ...timing, successThreshold: 1, failureThreshold: 1 };
  let name: string;
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const scheme = url.protocol === 'https:' ? 'HTTPS' : 'HTTP';
    const port = url.port === '' ? (scheme === 'HTTPS' ? 443 : 80) : Number(url.port);
    probe.httpGet = { scheme, host, port, path: `${url.pathname}${url.search}` };
    // The query may carry a token: never in a label, a log line or a condition.
    name = `${url.protocol}//${url.host}${url.pathname}`;
  } else if (url.protocol === 'tcp:') {
    if (url.port === '') throw new Error(`"${value}": a tcp:// sentinel needs a port: ${ACCEPTED}`);
    probe.tcpSocket = { host, port: Number(url.port) };
    name = `tcp://${url.host}`;
  } else throw new Error(`"${value}": the scheme must be http, https or tcp, not ${url.protocol.replace(/:$/, '')}`);
  const checked = validateProbe(probe, {
    base: 'sentinel',
    ...(denyList !== undefined ? { denyHosts: denyList } : {}),
  });
  if (!checked.valid) throw new Error(`"${name}": ${checked.errors.map((e) => e.message).join('; ')}`);
  return { name, probe: checked.object };
}

export interface SentinelsOptions {
  urls: readonly string[];
  periodSeconds: number;
  timeoutSeconds: number;
  /** Failures in a row that confirm a sentinel is down (the guard then lifts verdicts written before). */
  failureThreshold: number;
  guard: DisruptionGuard;
  clock?: Clock;
  denyList?: readonly string[];
}

export class Sentinels {
  private readonly scheduler: ProbeScheduler;
  private readonly list: Sentinel[];

  /** Throws (a message naming the sentinel) for a URL that is not one. */
  constructor(private readonly options: SentinelsOptions) {
    this.list = options.urls.map((u) =>
      parseSentinel(
        u,
        { periodSeconds: options.periodSeconds, timeoutSeconds: options.timeoutSeconds },
        options.denyList,
      ),
    );
    this.scheduler = new ProbeScheduler({
      concurrency: 16,
      // Sentinels start at once: a broken prober must be noticed before the first Cluster crosses its threshold.
      random: () => 0,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      onResult: (name, result) => options.guard.sentinelResult(name, result),
    });
  }

  start(): void {
    const { guard, denyList, failureThreshold } = this.options;
    for (const { name, probe } of this.list) {
      if (this.scheduler.has(name)) continue;
      guard.addSentinel(name, failureThreshold);
      this.scheduler.add(name, probe, (signal) =>
        runProbe(probe, { signal, ...(denyList !== undefined ? { denyList } : {}) }),
      );
    }
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
  }
}
