// The baseline: Prometheus' blackbox_exporter at the version bench/probe/blackbox/go.mod pins, built from that module
// into a cache outside the repo, started with an http_2xx module and driven from Node at a fixed rate over keep-alive,
// its CPU read from /proc/<pid>/stat. Without it the bench has nothing to compare with, so a missing baseline is an
// error, never a skip.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CACHE_DIR = join(homedir(), '.cache', 'karmada-cluster-probe', 'bench');
const MODULE_PATH = 'github.com/prometheus/blackbox_exporter';
/** The Go module that pins the exporter and every module it builds from (go.mod, go.sum). */
const MODULE_DIR = fileURLToPath(new URL('./blackbox/', import.meta.url));
const PROGRESS_EVERY_MS = 30_000;

/** The blackbox_exporter version bench/probe/blackbox/go.mod requires: the one place the baseline's version is set. */
export function pinnedExporterVersion(): string {
  const goMod = join(MODULE_DIR, 'go.mod');
  const match = /^\s*github\.com\/prometheus\/blackbox_exporter\s+(v\S+)/m.exec(readFileSync(goMod, 'utf8'));
  if (match?.[1] === undefined) throw new Error(`${goMod}: no requirement on ${MODULE_PATH}`);
  return match[1];
}

/**
 * The exporter binary: $BLACKBOX_EXPORTER, else the cache's build of the pinned version, else built into the cache
 * now (`go build` in bench/probe/blackbox, -mod=readonly: nothing is resolved beyond go.sum). Throws, saying what to
 * do, when there is none.
 */
export async function findOrBuildExporter(log: (line: string) => void): Promise<string> {
  const fromEnv = process.env.BLACKBOX_EXPORTER;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (!existsSync(fromEnv)) throw new Error(`BLACKBOX_EXPORTER=${fromEnv}: no such file`);
    return fromEnv;
  }
  const version = pinnedExporterVersion();
  const cached = join(CACHE_DIR, `blackbox_exporter-${version}`);
  if (existsSync(cached)) return cached;
  mkdirSync(CACHE_DIR, { recursive: true });
  const temp = `${cached}.${process.pid}.tmp`;
  log(`building blackbox_exporter ${version} from bench/probe/blackbox/go.mod into ${cached} (once; a few minutes)...`);
  const started = Date.now();
  const progress = setInterval(
    () => log(`still building blackbox_exporter ${version} (${Math.round((Date.now() - started) / 1000)} s)...`),
    PROGRESS_EVERY_MS,
  );
  try {
    await new Promise<void>((resolve, reject) =>
      execFile(
        'go',
        ['build', '-mod=readonly', '-trimpath', '-o', temp, MODULE_PATH],
        { cwd: MODULE_DIR, timeout: 30 * 60_000, maxBuffer: 16 * 1024 * 1024 },
        (err, _out, stderr) => {
          if (err === null) return resolve();
          const why = stderr.trim().split('\n').slice(-3).join(' ') || err.message;
          reject(
            new Error(
              `the baseline cannot be built: go build of ${MODULE_PATH} ${version} in bench/probe/blackbox failed: ` +
                `${why}. Put Go 1.26 or newer on PATH with the module proxy reachable, or set ` +
                'BLACKBOX_EXPORTER=/path/to/blackbox_exporter (--skip-blackbox measures without the baseline).',
            ),
          );
        },
      ),
    );
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  } finally {
    clearInterval(progress);
  }
  renameSync(temp, cached);
  log(`built blackbox_exporter ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
  return cached;
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
  const { user, system } = processCpuSplit(pid);
  return user + system;
}

/** A process's CPU seconds in user space and in the kernel (its syscalls: connect, read, write, close, epoll). */
export function processCpuSplit(pid: number): { user: number; system: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the command name: state is field 3, so utime (14) and stime (15) are at 11 and 12 here; USER_HZ 100.
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

/** Resident memory of a process, in bytes, from /proc/<pid>/status (VmRSS) and its peak (VmHWM). */
export function processRss(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? '0') * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}
