// A real Prometheus for the end-to-end tests: the binary scripts/build-prometheus.mjs caches (built only when missing;
// CLUSTER_PROBE_PROMETHEUS names its directory when a runner built it), started on 127.0.0.1 with its config, rules
// and TSDB in a temporary directory, its HTTP API queried, and killed (directory removed) by stop(), or by the test
// process's exit should a test die first.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, closeSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './reconciler-env.js';

const REPO = resolve(fileURLToPath(new URL('../../..', import.meta.url)));

/** The directory holding prometheus and promtool: the runner's, or the cache (built now if missing, saying so). */
export function prometheusBinDir(): string {
  const fromEnv = process.env.CLUSTER_PROBE_PROMETHEUS;
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  process.stderr.write('      prometheus: node scripts/build-prometheus.mjs (builds only when the cache lacks it)\n');
  const out = spawnSync(process.execPath, [join(REPO, 'scripts', 'build-prometheus.mjs')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  });
  const dir = out.stdout.trim().split('\n').pop() ?? '';
  if (out.status !== 0 || dir === '') throw new Error(`scripts/build-prometheus.mjs failed (exit ${out.status})`);
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((ok) => server.close(() => ok()));
  return port;
}

export interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PromAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
}

export interface PrometheusOptions {
  /** host:port of every target, one job. */
  targets: string[];
  rules: string;
  scrapeIntervalS: number;
  evaluationIntervalS: number;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const c of running) if (c.exitCode === null) c.kill('SIGKILL');
});

export class Prometheus {
  private child: ChildProcess | undefined;
  private readonly dir = mkdtempSync(join(tmpdir(), 'cluster-probe-prometheus-'));
  private readonly logFile = join(this.dir, 'prometheus.log');
  url = '';

  constructor(private readonly binDir: string) {}

  async start(options: PrometheusOptions): Promise<void> {
    writeFileSync(join(this.dir, 'rules.yaml'), options.rules);
    writeFileSync(
      join(this.dir, 'prometheus.yml'),
      JSON.stringify({
        global: {
          scrape_interval: `${options.scrapeIntervalS}s`,
          scrape_timeout: `${options.scrapeIntervalS}s`,
          evaluation_interval: `${options.evaluationIntervalS}s`,
        },
        rule_files: ['rules.yaml'],
        scrape_configs: [{ job_name: 'cluster-probe', static_configs: [{ targets: options.targets }] }],
      }),
    );
    const port = await freePort();
    this.url = `http://127.0.0.1:${port}`;
    const log = openSync(this.logFile, 'a');
    this.child = spawn(
      join(this.binDir, 'prometheus'),
      [
        `--config.file=${join(this.dir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(this.dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--log.level=warn',
      ],
      { cwd: this.dir, stdio: ['ignore', log, log] },
    );
    closeSync(log);
    running.add(this.child);
    this.child.once('exit', () => running.delete(this.child!));
    await waitFor('Prometheus /-/ready', 60_000, async () => {
      if (this.child?.exitCode !== null) throw new Error(`prometheus exited: ${this.logTail()}`);
      return (await fetch(`${this.url}/-/ready`, { signal: AbortSignal.timeout(2_000) })).ok;
    }).catch((err: unknown) => {
      throw new Error(`${err instanceof Error ? err.message : String(err)}\n${this.logTail()}`);
    });
  }

  logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').slice(-3000);
    } catch {
      return '(no log)';
    }
  }

  private async api<T>(path: string, query: Record<string, string> = {}): Promise<T> {
    const url = new URL(`${this.url}/api/v1/${path}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${path} ${JSON.stringify(query)}: ${body.error}`);
    return body.data;
  }

  /** An instant vector (a scalar or matrix answer is an error: every expression here is a vector). */
  async query(expr: string): Promise<Sample[]> {
    const data = await this.api<{ resultType: string; result: Sample[] }>('query', { query: expr });
    if (data.resultType !== 'vector') throw new Error(`${expr}: a ${data.resultType}, not a vector`);
    return data.result;
  }

  async alerts(): Promise<PromAlert[]> {
    return (await this.api<{ alerts: PromAlert[] }>('alerts')).alerts;
  }

  async targetsUp(): Promise<boolean> {
    const data = await this.api<{ activeTargets: { health: string }[] }>('targets');
    return data.activeTargets.length > 0 && data.activeTargets.every((t) => t.health === 'up');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child !== undefined && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
      child.kill('SIGKILL');
      await exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
