// Sentinels (`--sentinel`): targets outside every member that must always answer. The reconciler probes them like a
// Cluster (same engine, same address policy) and, when one fails, blames itself before any member: the disruption
// guard then withholds every failure verdict. URLs: http(s)://host[:port][/path] (an httpGet) or tcp://host:port.
import { ProbeScheduler, runProbe, type Clock, type LivenessProbe } from '../probe/index.js';
import type { DisruptionGuard } from './disruption-guard.js';

/** The probe a sentinel URL stands for; throws a message that says what is accepted. */
export function sentinelProbe(value: string, periodSeconds: number, timeoutSeconds: number): LivenessProbe {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `"${value}" is not a URL: give http://HOST[:PORT]/PATH, https://HOST[:PORT]/PATH or tcp://HOST:PORT`,
    );
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw new Error(`"${value}" has no host`);
  if (url.username !== '' || url.password !== '')
    throw new Error(`"${value}": credentials in a sentinel URL are not supported`);
  const timing = { periodSeconds, timeoutSeconds, failureThreshold: 1, successThreshold: 1 };
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    const scheme = url.protocol === 'https:' ? 'HTTPS' : 'HTTP';
    const port = url.port === '' ? (scheme === 'HTTPS' ? 443 : 80) : Number(url.port);
    return { httpGet: { scheme, host, port, path: `${url.pathname}${url.search}` }, ...timing };
  }
  if (url.protocol === 'tcp:') {
    if (url.port === '') throw new Error(`"${value}": a tcp:// sentinel needs a port`);
    return { tcpSocket: { host, port: Number(url.port) }, ...timing };
  }
  throw new Error(`"${value}": the scheme must be http, https or tcp, not ${url.protocol.replace(/:$/, '')}`);
}

export interface SentinelsOptions {
  urls: readonly string[];
  periodSeconds: number;
  timeoutSeconds: number;
  guard: DisruptionGuard;
  clock?: Clock;
  denyList?: readonly string[];
}

export class Sentinels {
  private readonly scheduler: ProbeScheduler;

  constructor(private readonly options: SentinelsOptions) {
    this.scheduler = new ProbeScheduler({
      concurrency: 16,
      // Sentinels start at once: a broken prober must be noticed before the first Cluster crosses its threshold.
      random: () => 0,
      ...(options.clock !== undefined ? { clock: options.clock } : {}),
      onResult: (name, result) => options.guard.sentinel(name, result.result !== 'success'),
    });
  }

  start(): void {
    const { urls, periodSeconds, timeoutSeconds, guard, denyList } = this.options;
    for (const url of urls) {
      const probe = sentinelProbe(url, periodSeconds, timeoutSeconds);
      guard.sentinel(url, undefined);
      this.scheduler.add(url, probe, (signal) =>
        runProbe(probe, { signal, ...(denyList !== undefined ? { denyList } : {}) }),
      );
    }
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
  }
}
