// The baseline: Prometheus' blackbox_exporter, built from its Go module into a cache outside the repo, started with an
// http_2xx module and driven from Node at a fixed rate over keep-alive, its CPU read from /proc/<pid>/stat.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const CACHE_DIR = join(homedir(), '.cache', 'karmada-cluster-probe', 'bench');
const MODULE_PATH = 'github.com/prometheus/blackbox_exporter';

/** The exporter binary: $BLACKBOX_EXPORTER, the cache, or `go install <module>@latest` into the cache. */
export async function findOrBuildExporter(log: (line: string) => void): Promise<string | undefined> {
  const fromEnv = process.env.BLACKBOX_EXPORTER;
  if (fromEnv !== undefined && existsSync(fromEnv)) return fromEnv;
  const cached = join(CACHE_DIR, 'blackbox_exporter');
  if (existsSync(cached)) return cached;
  mkdirSync(CACHE_DIR, { recursive: true });
  log(`building blackbox_exporter: go install ${MODULE_PATH}@latest (into ${CACHE_DIR}; a few minutes)...`);
  const ok = await new Promise<boolean>((resolve) =>
    execFile(
      'go',
      ['install', `${MODULE_PATH}@latest`],
      { env: { ...process.env, GOBIN: CACHE_DIR }, timeout: 10 * 60_000 },
      (err, _out, stderr) => {
        if (err) log(`go install failed: ${stderr.trim().split('\n').slice(-2).join(' ') || err.message}`);
        resolve(err === null);
      },
    ),
  );
  return ok && existsSync(cached) ? cached : undefined;
}

export interface Exporter {
  pid: number;
  port: number;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = http.createServer();
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const p = a !== null && typeof a !== 'string' ? a.port : 0;
      s.close(() => resolve(p));
    });
  });
}

export async function startExporter(binary: string, timeoutSeconds: number): Promise<Exporter> {
  const dir = join(tmpdir(), `cluster-probe-bench-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'blackbox.yml');
  writeFileSync(
    config,
    [
      'modules:',
      '  http_2xx:',
      '    prober: http',
      `    timeout: ${timeoutSeconds}s`,
      '    http:',
      '      preferred_ip_protocol: ip4',
      '      ip_protocol_fallback: false',
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    binary,
    [`--config.file=${config}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error'],
    { stdio: ['ignore', 'ignore', 'ignore'] }, // it logs every failed probe; we count them from /probe instead
  );
  const deadline = Date.now() + 15_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path: '/-/ready', timeout: 500 }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.on('error', () => resolve(false));
      req.on('timeout', () => req.destroy());
    });
    if (up) break;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill();
      throw new Error('blackbox_exporter did not become ready within 15 s');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid: child.pid ?? 0,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100; // USER_HZ, 100 on Linux
}

/** Resident memory of a process, in bytes, from /proc/<pid>/status (VmRSS) and its peak (VmHWM). */
export function processRss(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? '0') * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
