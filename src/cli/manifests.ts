// `cluster-probe manifests`: renders the webhook's Deployment, Service, PDB and webhook configurations, with the
// caBundle from a CA file, reaching the webhook through a Service or a URL. --out DIR writes the files of manifests/.
import { Command, Option, InvalidArgumentError } from 'commander';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import {
  DEFAULT_MANIFEST_OPTIONS,
  manifestObjects,
  parseCidr,
  renderManifests,
  type ManifestOptions,
} from '../webhook/index.js';
import { stringify } from 'yaml';
import type { ProbeLocation } from '../schema/index.js';

interface ManifestsFlags {
  caFile?: string;
  service?: string;
  url?: string;
  probeLocation: ProbeLocation;
  image: string;
  denyCidr?: string[];
  only: 'all' | 'webhooks' | 'workload';
  out?: string;
}

function serviceRef(value: string): string {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(value)) {
    throw new InvalidArgumentError('must be NAMESPACE/NAME, e.g. cluster-probe-system/cluster-probe-webhook');
  }
  return value;
}

function httpsUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(`${value} is not a URL`);
  }
  if (url.protocol !== 'https:') throw new InvalidArgumentError('the apiserver calls webhooks over https only');
  if (url.search || url.hash || url.username) throw new InvalidArgumentError('no query, fragment or user info');
  return value.replace(/\/+$/, '');
}

export function register(program: Command): void {
  program
    .command('manifests')
    .description('render the webhook manifests (with the caBundle of --ca-file) to stdout, or into --out DIR')
    .option('--ca-file <file>', 'PEM CA that signed the serving certificate (e.g. certs/ca.crt)')
    .option(
      '--service <namespace/name>',
      'the webhook Service (default cluster-probe-system/cluster-probe-webhook)',
      serviceRef,
    )
    .option('--url <url>', 'reach the webhook at this base URL instead (<url>/mutate, <url>/validate)', httpsUrl)
    .addOption(
      new Option('--probe-location <where>', 'passed to serve').choices(['field', 'annotation']).default('field'),
    )
    .option('--image <image>', 'webhook container image', DEFAULT_MANIFEST_OPTIONS.image)
    .option('--deny-cidr <cidr>', 'passed to serve; repeat for more', (v: string, p: string[] | undefined) => {
      try {
        return [...(p ?? []), parseCidr(v)];
      } catch (err) {
        throw new InvalidArgumentError((err as Error).message);
      }
    })
    .addOption(
      new Option('--only <part>', 'webhooks: just the two webhook configurations (for karmada-apiserver)')
        .choices(['all', 'webhooks', 'workload'])
        .default('all'),
    )
    .option('--out <dir>', 'write the files of manifests/ (kustomization.yaml included) instead of printing')
    .action(async (flags: ManifestsFlags) => {
      if (flags.service && flags.url) throw new Error('--service and --url exclude each other; give one');
      const options: Partial<ManifestOptions> = {
        probeLocation: flags.probeLocation,
        image: flags.image,
        denyCidrs: flags.denyCidr ?? [],
      };
      if (flags.service) {
        const [namespace = '', name = ''] = flags.service.split('/');
        Object.assign(options, { namespace, name, tlsSecretName: `${name}-tls` });
      }
      if (flags.url) options.url = flags.url;
      if (flags.caFile) {
        const pem = await readFile(flags.caFile, 'utf8').catch((err: NodeJS.ErrnoException) => {
          throw new Error(`--ca-file ${flags.caFile}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
        });
        try {
          if (!new X509Certificate(pem).ca) throw new Error('the certificate is not a CA (basicConstraints CA:FALSE)');
        } catch (err) {
          throw new Error(`--ca-file ${flags.caFile}: ${(err as Error).message}`);
        }
        options.caPem = pem;
      } else {
        process.stderr.write(
          'cluster-probe manifests: no --ca-file; the webhook configurations carry no caBundle, so the apiserver ' +
            'will verify the webhook against its system roots\n',
        );
      }
      if (flags.out) {
        await mkdir(flags.out, { recursive: true });
        for (const [file, text] of Object.entries(renderManifests(options))) {
          await writeFile(path.join(flags.out, file), text);
        }
        process.stderr.write(`cluster-probe manifests: wrote ${flags.out}\n`);
        return;
      }
      const objects = manifestObjects(options);
      const picked = Object.entries(objects)
        .filter(([file]) => {
          const isWebhook = file.includes('webhookconfiguration');
          return flags.only === 'all' || (flags.only === 'webhooks' ? isWebhook : !isWebhook);
        })
        .map(([, object]) => stringify(object, { lineWidth: 0 }));
      process.stdout.write(picked.join('---\n'));
    });
}
