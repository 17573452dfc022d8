// The admission webhook as a real child process of the local control plane: certificates made by `cluster-probe
// certs`, `cluster-probe serve` on a loopback port, the webhook configurations rendered by `cluster-probe manifests`.
// Drives the CLI as a user would (a subprocess each), so the e2e tests and `dev up` exercise the shipped commands.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, httpsGet, waitFor } from './loopback.js';
import { ProcessGroup } from './process-group.js';
import { runCommand } from './run-command.js';

/** How to run the `cluster-probe` CLI: a command and the arguments that come before the subcommand. */
export interface CliInvocation {
  command: string;
  args: string[];
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI this process runs as: the same node, flags (e.g. tsx's loader) and entry script, so a child runs the same
 * code whether it came from `node bin/cluster-probe.js` or `npx tsx src/cli/bin.ts`.
 */
export function currentCli(): CliInvocation {
  const entry = process.argv[1];
  if (entry === undefined) throw new Error('cannot tell which script runs this process (process.argv[1] is empty)');
  return { command: process.execPath, args: [...process.execArgv, entry] };
}

/** Runs one CLI command to completion; never throws for a non-zero exit; killed after timeoutMs. */
export function runCli(cli: CliInvocation, args: string[], timeoutMs = 60_000): Promise<CliResult> {
  return runCommand(cli.command, [...cli.args, ...args], { timeoutMs, label: `cluster-probe ${args.join(' ')}` });
}

async function mustRun(cli: CliInvocation, args: string[], timeoutMs?: number): Promise<CliResult> {
  const result = await runCli(cli, args, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`cluster-probe ${args.join(' ')} exited with ${result.code}: ${result.stderr.trim()}`);
  }
  return result;
}

export interface WebhookProcessOptions {
  cli: CliInvocation;
  /** Directory for the certificates (`<dir>/webhook-certs`) and the log (`<dir>/webhook.log`). */
  dir: string;
  /** Port to serve on; default a free one, kept across restarts. */
  port?: number;
  /** More `serve` flags, e.g. `--probe-location=annotation`. */
  serveArgs?: string[];
  /** Called with each process started, e.g. ControlPlane.adopt so a reaper also kills it. */
  onStart?: (group: ProcessGroup) => void;
}

export class WebhookProcess {
  readonly certDir: string;
  readonly caFile: string;
  readonly caPem: string;
  readonly port: number;
  readonly url: string;
  readonly logPath: string;
  private readonly options: WebhookProcessOptions;
  private current: ProcessGroup | undefined;

  private constructor(options: WebhookProcessOptions, port: number) {
    this.options = options;
    this.certDir = join(options.dir, 'webhook-certs');
    this.caFile = join(this.certDir, 'ca.crt');
    this.caPem = readFileSync(this.caFile, 'utf8');
    this.port = port;
    this.url = `https://127.0.0.1:${port}`;
    this.logPath = join(options.dir, 'webhook.log');
  }

  /** Makes the CA and a serving certificate for 127.0.0.1 with `cluster-probe certs`, and picks the port. */
  static async create(options: WebhookProcessOptions): Promise<WebhookProcess> {
    const certDir = join(options.dir, 'webhook-certs');
    mkdirSync(certDir, { recursive: true });
    await mustRun(options.cli, ['certs', '--out', certDir, '--dns', 'localhost', '--ip', '127.0.0.1']);
    return new WebhookProcess(options, options.port ?? (await freePort()));
  }

  get process(): ProcessGroup | undefined {
    return this.current;
  }

  get pid(): number | undefined {
    return this.current?.exitReason === undefined ? this.current?.pid : undefined;
  }

  /** Starts `cluster-probe serve` and waits (bounded) until it answers GET /readyz. */
  async start(timeoutMs = 30_000): Promise<void> {
    if (this.current !== undefined && this.current.exitReason === undefined) return;
    const group = new ProcessGroup(
      'webhook',
      this.options.cli.command,
      [
        ...this.options.cli.args,
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        String(this.port),
        '--cert-dir',
        this.certDir,
        // Tests stop and restart it; nothing sits in front of it that needs a drain period.
        '--shutdown-delay',
        '0',
        ...(this.options.serveArgs ?? []),
      ],
      this.logPath,
    );
    this.current = group;
    this.options.onStart?.(group);
    await waitFor(`the webhook's /readyz on ${this.url}`, Date.now() + timeoutMs, [group], async () => {
      const res = await httpsGet({ port: this.port, path: '/readyz', ca: this.caPem, timeoutMs: 2_000 });
      return res.status === 200;
    });
  }

  /** SIGTERM, then SIGKILL after graceMs; resolves once it has exited. */
  async stop(graceMs = 10_000): Promise<void> {
    await this.current?.stop(graceMs);
  }

  /** The Mutating- and ValidatingWebhookConfiguration pointing at this process, from `cluster-probe manifests`. */
  async manifests(): Promise<string> {
    const rendered = await mustRun(this.options.cli, [
      'manifests',
      '--url',
      this.url,
      '--ca-file',
      this.caFile,
      '--only',
      'webhooks',
    ]);
    return rendered.stdout;
  }
}
