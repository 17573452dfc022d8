// `cluster-probe probe`: runs a Cluster's liveness probe (or an httpGet of a URL) once, now, and reports it as text or
// JSON; exit 0 success, 1 failure, 2 configuration or usage error, 3 errored (the kubelet's errored probe). Reads the Cluster as the reconciler does
// (the schema library's probe source, packages/schema/src/schema/probe-source.ts) and probes with src/probe; talks to no Kubernetes API. The probe engine and the probe
// source are loaded when the command runs, not when it is registered.
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { LivenessProbe as ProbeLivenessProbe, ProbeContext, ProbeResult } from '@karmada-cluster-probe/probe';
import type { probeSourceOf as ProbeSourceOf } from '@karmada-cluster-probe/schema/internal/schema/probe-source.js';
import { InputError, objectsOf, parseSource } from './documents.js';
import { LEGACY_ANNOTATION, PROBE_ANNOTATION, validateProbe, type Cluster } from '@karmada-cluster-probe/schema';
import { messageOf, isRecord } from '@karmada-cluster-probe/schema/api';

export interface ProbeCommandOptions {
  file?: string;
  url?: string;
  timeout?: string;
  output?: string;
  insecureSkipTlsVerify?: boolean;
  tokenFile?: string;
  caFile?: string;
}

export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readFile: (path: string) => string;
}

const defaultIo: Io = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  readFile: (p) => readFileSync(p === '-' ? 0 : p, 'utf8'),
};

class UsageError extends Error {}

interface Loaded {
  probe: ProbeLivenessProbe;
  ctx: ProbeContext;
  cluster?: string;
  source: string;
}

type Obj = Record<string, unknown>;

function fromUrl(text: string): Loaded {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new UsageError(`--url: "${text}" is not a URL; use e.g. https://10.0.0.1:6443/readyz`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new UsageError(`--url: scheme "${u.protocol.replace(':', '')}" is not supported; use http or https`);
  const https = u.protocol === 'https:';
  return {
    probe: {
      httpGet: {
        scheme: https ? 'HTTPS' : 'HTTP',
        host: u.hostname.replace(/^\[|\]$/g, ''),
        port: u.port !== '' ? Number(u.port) : https ? 443 : 80,
        path: `${u.pathname}${u.search}`,
      },
    },
    ctx: {},
    source: u.href,
  };
}

function fromCluster(path: string, io: Io, probeSourceOf: typeof ProbeSourceOf): Loaded {
  let text: string;
  try {
    text = io.readFile(path);
  } catch (e) {
    throw new UsageError(`${path}: cannot read: ${messageOf(e)}`);
  }
  let refs;
  try {
    refs = objectsOf(parseSource(path, text));
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(e.message);
    throw e;
  }
  const objects = refs.map((ref) => ref.value).filter(isRecord);
  const clusters = objects.filter((o) => o.kind === 'Cluster');
  if (clusters.length === 0) throw new UsageError(`${path}: no Cluster object found (kind: Cluster)`);
  if (clusters.length > 1)
    throw new UsageError(`${path}: holds ${clusters.length} Clusters; probe one at a time (one document per file)`);
  const cluster = clusters[0] as Obj;
  const metadata = isRecord(cluster.metadata) ? cluster.metadata : {};
  const name = typeof metadata.name === 'string' ? metadata.name : undefined;
  const spec = isRecord(cluster.spec) ? cluster.spec : {};
  const where = `${path}: Cluster${name !== undefined ? ` "${name}"` : ''}`;
  // The same reading of the Cluster as the reconciler's: the field, else the annotation, else the legacy annotation.
  const found = probeSourceOf(cluster as unknown as Cluster);
  if (found.kind === 'none')
    throw new UsageError(
      `${where} has no spec.livenessProbe (nor annotation ${PROBE_ANNOTATION} or ${LEGACY_ANNOTATION}); add one, or use --url`,
    );
  if ('error' in found) throw new UsageError(`${where}: ${found.error}`);
  const probe = found.probe;
  if (found.kind === 'field') {
    // The annotation sources are checked by probeSourceOf; the field is checked here, as the webhook would.
    const apiEndpoint = typeof spec.apiEndpoint === 'string' ? spec.apiEndpoint : undefined;
    const checked = validateProbe(probe, { base: 'spec.livenessProbe', ...(apiEndpoint ? { apiEndpoint } : {}) });
    if (!checked.valid) throw new UsageError(`${where}: ${checked.errors.map((e) => e.message).join('; ')}`);
  }
  const source = {
    field: 'spec.livenessProbe',
    annotation: `annotation ${PROBE_ANNOTATION}`,
    legacy: `annotation ${LEGACY_ANNOTATION} (legacy)`,
  }[found.kind];
  const ctx: ProbeContext = {};
  if (typeof spec.apiEndpoint === 'string') ctx.apiEndpoint = spec.apiEndpoint;
  if (spec.insecureSkipTLSVerification === true) ctx.insecureSkipTLSVerify = true;
  return { probe: probe as ProbeLivenessProbe, ctx, ...(name !== undefined ? { cluster: name } : {}), source };
}

function render(result: ProbeResult, loaded: Loaded, format: string): string {
  if (format === 'json')
    return `${JSON.stringify({
      ...(loaded.cluster !== undefined ? { cluster: loaded.cluster } : {}),
      source: loaded.source,
      result: result.result,
      ...(result.code !== undefined ? { code: result.code } : {}),
      ...(result.attempts !== undefined ? { attempts: result.attempts } : {}),
      message: result.message,
      warnings: result.warnings ?? [],
      durationMs: result.durationMs,
    })}\n`;
  const lines = [
    ...(loaded.cluster !== undefined
      ? [`Cluster:  ${loaded.cluster} (${loaded.source})`]
      : [`Target:   ${loaded.source}`]),
    `Result:   ${
      result.code === 'ProbeErrored'
        ? `errored after ${result.attempts ?? 1} attempt(s): the answer could not be read, not a verdict (the reconciler retries it and counts it toward no threshold)`
        : result.result === 'error'
          ? 'error: the probe cannot run as configured'
          : result.result
    }`,
    `Message:  ${result.message}`,
    ...(result.warnings ?? []).map((w) => `Warning:  ${w}`),
    `Duration: ${Math.round(result.durationMs)} ms`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The exit status of an errored probe: neither a verdict (0, 1) nor a fault of the configuration (2). */
export const EXIT_ERRORED = 3;

/** The command's work, with its I/O injected; resolves to the exit code. */
export async function probeCommand(opts: ProbeCommandOptions, io: Io = defaultIo): Promise<number> {
  try {
    const format = opts.output ?? 'text';
    if (format !== 'text' && format !== 'json')
      throw new UsageError(`-o/--output: "${format}" is not supported; use text or json`);
    if ((opts.file === undefined) === (opts.url === undefined))
      throw new UsageError('give exactly one of -f/--file CLUSTER.yaml or --url URL');
    const [{ runProbe }, { probeSourceOf }] = await Promise.all([
      import('@karmada-cluster-probe/probe'),
      import('@karmada-cluster-probe/schema/internal/schema/probe-source.js'),
    ]);
    const loaded = opts.url !== undefined ? fromUrl(opts.url) : fromCluster(opts.file!, io, probeSourceOf);
    const probe: ProbeLivenessProbe = { ...loaded.probe };
    if (opts.timeout !== undefined) {
      const t = Number(opts.timeout);
      if (!Number.isInteger(t) || t < 1)
        throw new UsageError(`--timeout: "${opts.timeout}" must be a whole number of seconds, 1 or more`);
      probe.timeoutSeconds = t;
    }
    if (opts.insecureSkipTlsVerify === true) {
      if (probe.httpGet !== undefined) probe.httpGet = { ...probe.httpGet, insecureSkipTLSVerify: true };
      loaded.ctx.insecureSkipTLSVerify = true;
    }
    if (opts.tokenFile !== undefined || opts.caFile !== undefined) {
      const read = (p: string, what: string): string => {
        try {
          return io.readFile(p);
        } catch (e) {
          throw new UsageError(`${what} ${p}: cannot read: ${messageOf(e)}`);
        }
      };
      loaded.ctx.credentials = {
        ...(opts.tokenFile !== undefined ? { token: read(opts.tokenFile, '--token-file').trim() } : {}),
        ...(opts.caFile !== undefined ? { caBundlePem: read(opts.caFile, '--ca-file') } : {}),
      };
    }
    const result = await runProbe(probe, loaded.ctx);
    io.stdout(render(result, loaded, format));
    if (result.result === 'success') return 0;
    if (result.result === 'failure') return 1;
    return result.code === 'ProbeErrored' ? EXIT_ERRORED : 2;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`cluster-probe probe: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

const EXAMPLES = `
Examples:
  # Probe a Cluster as the reconciler would (spec.livenessProbe, or the ${PROBE_ANNOTATION} annotation)
  cluster-probe probe -f member-dev.yaml

  # An apiServer probe needs the member's credentials (the Secret that spec.secretRef names)
  cluster-probe probe -f member-dev.yaml --token-file token --ca-file ca.crt

  # Probe a URL directly, with a 5 s timeout, as JSON
  cluster-probe probe --url https://10.0.0.1:6443/readyz --timeout 5 -o json

Exit status: 0 the probe succeeded, 1 it failed, 2 the probe or the command line is misconfigured, 3 the probe
errored: the target's answer could not be read to the end (retried 3 times, as the kubelet does), which the reconciler
counts toward no threshold.
`;

export function register(program: Command): void {
  program
    .command('probe')
    .description("Run a Cluster's liveness probe once, now, and print the result")
    .option('-f, --file <file>', 'Cluster YAML to read the probe and spec.apiEndpoint from (- for stdin)')
    .option('--url <url>', 'probe this http(s) URL with an httpGet probe instead')
    .option('--timeout <seconds>', "override the probe's timeoutSeconds")
    .option('-o, --output <format>', 'text or json', 'text')
    .option('--insecure-skip-tls-verify', 'do not verify the HTTPS certificate (httpGet and apiServer)')
    .option('--token-file <file>', 'bearer token for an apiServer probe')
    .option('--ca-file <file>', 'PEM CA bundle for an apiServer probe')
    .addHelpText('after', EXAMPLES)
    .action(async (opts: ProbeCommandOptions) => {
      process.exitCode = await probeCommand(opts);
    });
}
