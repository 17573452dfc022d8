// `cluster-probe certs`: makes (or reuses) a SHA-256 CA in --out and a serving certificate it signs, with the SANs
// asked for. Defaults cover the in-cluster Service names and localhost, so the same files work in a pod and on a laptop.
// The certificate maker is loaded when the command runs, not when it is registered.
import { Command, InvalidArgumentError } from 'commander';
import { isIP } from 'node:net';
import path from 'node:path';

interface CertsFlags {
  out: string;
  dns?: string[];
  ip?: string[];
  service: string;
  days: number;
}

const DNS_NAME = /^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/i;

function collect(check: (value: string) => string) {
  return (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), check(value)];
}

function dnsName(value: string): string {
  if (!DNS_NAME.test(value) || value.length > 253) throw new InvalidArgumentError(`${value} is not a DNS name`);
  return value;
}

function ipAddress(value: string): string {
  if (isIP(value) === 0) throw new InvalidArgumentError(`${value} is not an IPv4 or IPv6 address`);
  return value;
}

function serviceRef(value: string): string {
  if (!/^[a-z0-9-]+\/[a-z0-9-]+$/.test(value)) throw new InvalidArgumentError('must be NAMESPACE/NAME');
  return value;
}

export function register(program: Command): void {
  program
    .command('certs')
    .description('make a CA (ca.crt, ca.key; reused when present) and a serving certificate (tls.crt, tls.key)')
    .option('--out <dir>', 'directory to write into', 'certs')
    .option(
      '--dns <name>',
      'DNS SAN; repeat for more (default: the Service names of --service, and localhost)',
      collect(dnsName),
    )
    .option('--ip <address>', 'IP SAN; repeat for more (default: 127.0.0.1 and ::1)', collect(ipAddress))
    .option(
      '--service <namespace/name>',
      'the webhook Service, for the default DNS SANs',
      serviceRef,
      'cluster-probe-system/cluster-probe-webhook',
    )
    .option(
      '--days <n>',
      'validity of the serving certificate in days',
      (v: string) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 3650) throw new InvalidArgumentError('must be 1-3650');
        return n;
      },
      365,
    )
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe certs                                   # ./certs: a CA and a certificate for the default Service
  $ cluster-probe certs --service karmada-system/cluster-probe-webhook --out /tmp/webhook-certs
  $ cluster-probe certs --dns webhook.example.internal --ip 10.0.0.5 --days 90

The CA (ca.crt, ca.key) is reused when present, so the webhook configuration's caBundle stays valid across runs.`,
    )
    .action(async (flags: CertsFlags) => {
      const { makeCertificates, serviceDnsNames } = await import('../certs/index.js');
      const [namespace = '', name = ''] = flags.service.split('/');
      const dnsNames = flags.dns ?? [...serviceDnsNames(namespace, name), 'localhost'];
      const ipAddresses = flags.ip ?? (flags.dns ? [] : ['127.0.0.1', '::1']);
      process.stderr.write(`cluster-probe certs: making a serving certificate in ${flags.out} ...\n`);
      await makeCertificates(flags.out, { dnsNames, ipAddresses, validityDays: flags.days });
      const out = path.resolve(flags.out);
      process.stderr.write(
        [
          `wrote ${path.join(out, 'ca.crt')}, ca.key, tls.crt, tls.key`,
          `  DNS: ${dnsNames.join(', ') || '(none)'}`,
          `  IP:  ${ipAddresses.join(', ') || '(none)'}`,
          `next: kubectl -n ${namespace} create secret tls ${name}-tls --cert ${flags.out}/tls.crt --key ${flags.out}/tls.key`,
          `      cluster-probe manifests --ca-file ${flags.out}/ca.crt --service ${flags.service} | kubectl apply -f -`,
          '',
        ].join('\n'),
      );
    });
}
