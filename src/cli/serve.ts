// `cluster-probe serve`: the admission webhook over HTTPS (POST /mutate, /validate; GET /healthz, /readyz, /metrics).
// Thin: parses flags, optionally makes development certificates, starts WebhookServer, stops it on SIGTERM/SIGINT.
// The server, the logger and the certificate maker are loaded when the command runs, not when it is registered.
import { collectCidr } from './cidr-option.js';
import { Command, Option, InvalidArgumentError } from 'commander';
import { probeLocationOption } from './probe-location-option.js';
import type { Logger } from 'pino';
import { DEFAULT_DENY_CIDRS, type ProbeLocation } from '@karmada-cluster-probe/schema';

interface ServeFlags {
  port: number;
  host: string;
  certDir: string;
  makeCerts: boolean;
  probeLocation: ProbeLocation;
  denyCidr?: string[];
  logLevel: string;
  shutdownDelay: number;
  certPollInterval: number;
}

function integer(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`must be an integer between ${min} and ${max}`);
    }
    return n;
  };
}

function seconds(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 3600) throw new InvalidArgumentError('must be a number of seconds (0-3600)');
  return n;
}

export async function createLogger(level: string): Promise<Logger> {
  const { pino } = await import('pino');
  return pino({
    level,
    base: { component: 'cluster-probe-webhook' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['key', 'cert', 'caBundle', '*.caBundle', '*.key'], censor: '[redacted]' },
  });
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the admission webhook over HTTPS (POST /mutate, /validate; GET /healthz, /readyz, /metrics)')
    .option('--port <port>', 'port to listen on (0 picks a free one)', integer(0, 65535), 8443)
    .option('--host <address>', 'address to listen on (0.0.0.0 in a pod)', '127.0.0.1')
    .option('--cert-dir <dir>', 'directory holding tls.crt and tls.key (watched and polled for changes)', 'certs')
    .option(
      '--make-certs',
      'when the directory has no tls.crt/tls.key, make a CA and a certificate for localhost',
      false,
    )
    .addOption(probeLocationOption('where the probe lives: spec.livenessProbe or the liveness-probe annotation'))
    .option(
      '--deny-cidr <cidr>',
      `address range a probe host may not point into; repeat for more; replaces the default (${DEFAULT_DENY_CIDRS.join(', ')})`,
      collectCidr,
    )
    .addOption(
      new Option('--log-level <level>', 'log level')
        .choices(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
        .default('info'),
    )
    .option('--shutdown-delay <seconds>', 'on SIGTERM, keep serving (not ready) this long before closing', seconds, 2)
    .option('--cert-poll-interval <seconds>', 'how often to re-read the certificate files', seconds, 10)
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe serve --make-certs                      # what npm start runs: https://127.0.0.1:8443, dev certificates
  $ cluster-probe serve --cert-dir /etc/webhook/certs --host 0.0.0.0 --probe-location annotation
  $ cluster-probe serve --deny-cidr 169.254.0.0/16 --deny-cidr 10.0.0.0/8 --log-level debug`,
    )
    .action(async (flags: ServeFlags) => {
      const [logger, { ensureCertificates }, { WebhookServer }] = await Promise.all([
        createLogger(flags.logLevel),
        import('../certs/index.js'),
        import('../webhook/index.js'),
      ]);
      if (flags.makeCerts) {
        const made = await ensureCertificates(flags.certDir, {
          dnsNames: ['localhost'],
          ipAddresses: ['127.0.0.1', '::1'],
        });
        if (made) logger.info({ certDir: flags.certDir }, 'made a development CA and serving certificate');
      }
      const server = new WebhookServer({
        host: flags.host,
        port: flags.port,
        certDir: flags.certDir,
        probeLocation: flags.probeLocation,
        denyHosts: flags.denyCidr ?? [...DEFAULT_DENY_CIDRS],
        logger,
        shutdownDelayMs: flags.shutdownDelay * 1000,
        certPollIntervalMs: Math.max(flags.certPollInterval, 0.1) * 1000,
      });
      let stopping = false;
      const stop = (signal: NodeJS.Signals) => {
        if (stopping) return;
        stopping = true;
        logger.info({ signal }, 'stop requested');
        server.shutdown().then(
          () => {
            process.exitCode = 0;
            // Everything is closed; leave now even if a stray handle lingers.
            setTimeout(() => process.exit(0), 200).unref();
          },
          (err: unknown) => {
            logger.error({ err }, 'shutdown failed');
            process.exit(1);
          },
        );
      };
      process.once('SIGTERM', stop);
      process.once('SIGINT', stop);
      await server.start();
    });
}
