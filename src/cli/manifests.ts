// `cluster-probe manifests`: prints one part of the install (--only) as a YAML stream, with the caBundle from a CA
// file and the webhook reached through a Service or a URL; --out DIR writes the files of manifests/. The Cluster CRD
// is never part of the output unless --with-crd asks for it, and only for the crd-served part; --kubeconfig then
// first checks the target is not a Karmada control plane (src/deploy/karmada-guard.ts).
import { Command, Option, InvalidArgumentError } from 'commander';
import { probeLocationOption } from './probe-location-option.js';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
// The renderer and the guard (src/deploy): this command never loads the webhook's server.
import {
  CRD_PATH,
  CRD_SERVED_OVERLAY,
  DEFAULT_MANIFEST_OPTIONS,
  MANIFEST_PARTS,
  renderManifests,
  renderManifestStream,
  type ManifestOptions,
  type ManifestPart,
  assertNotKarmadaControlPlane,
  KarmadaControlPlaneError,
} from '../deploy/index.js';
import type { ProbeLocation } from '@karmada-cluster-probe/schema';
import { packageRoot } from '../dev/package-root.js';
import { collectCidr } from './cidr-option.js';
import { trimTrailingSlashes } from '@karmada-cluster-probe/schema/api';

interface ManifestsFlags {
  caFile?: string;
  service?: string;
  url?: string;
  probeLocation: ProbeLocation;
  image: string;
  denyCidr?: string[];
  only: ManifestPart;
  out?: string;
  withCrd?: boolean;
  kubeconfig?: string;
  krewArchive?: string;
  krewUri?: string;
  krewLauncher?: boolean;
}

/** Parts whose objects include webhook configurations (the ones a missing --ca-file matters for). */
const WITH_CONFIGURATIONS: readonly ManifestPart[] = ['webhook', 'webhooks', 'crd-served'];

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
  return trimTrailingSlashes(value);
}

function samePath(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

const partsHelp = Object.entries(MANIFEST_PARTS)
  .map(([part, what]) => `  ${part.padEnd(18)} ${what}`)
  .join('\n');

export function register(program: Command): void {
  program
    .command('manifests')
    .description('render one part of the install (--only) to stdout, or every file of manifests/ into --out DIR')
    .option('--ca-file <file>', 'PEM CA that signed the serving certificate (e.g. certs/ca.crt)')
    .option(
      '--service <namespace/name>',
      'the webhook Service (default cluster-probe-system/cluster-probe-webhook); the namespace of every object',
      serviceRef,
    )
    .option('--url <url>', 'reach the webhook at this base URL instead (<url>/mutate, <url>/validate)', httpsUrl)
    .addOption(probeLocationOption('passed to serve'))
    .option('--image <image>', 'container image of the webhook and the reconciler', DEFAULT_MANIFEST_OPTIONS.image)
    .option('--deny-cidr <cidr>', 'passed to serve; repeat for more', collectCidr)
    .addOption(
      new Option('--only <part>', 'the part to print (see below)')
        .choices(Object.keys(MANIFEST_PARTS))
        .default('webhook'),
    )
    .option('--out <dir>', 'write the files of manifests/ (kustomizations included) instead of printing')
    .option(
      '--with-crd',
      'include the Cluster CRD (with --only crd-served, or --out): ONLY for an apiserver that serves Cluster from ' +
        'this CRD, NEVER a Karmada control plane',
    )
    .option(
      '--kubeconfig <file>',
      'with --with-crd: check the apiserver of this kubeconfig first; refuse if it is a Karmada control plane',
    )
    .option(
      '--krew-archive <file>',
      'print the krew plugin manifest of `kubectl karmada-probe` for this release archive (its sha256; docs/release.md)',
    )
    .option('--krew-launcher', 'print the launcher a krew archive holds as kubectl-karmada_probe (docs/release.md)')
    .option(
      '--krew-uri <url>',
      'with --krew-archive: where the archive is downloaded from (default: the release asset)',
    )
    .addHelpText(
      'after',
      `
Parts (--only):
${partsHelp}

The Cluster CRD is never printed by default. On a Karmada control plane, Cluster is served by
karmada-aggregated-apiserver (APIService v1alpha1.cluster.karmada.io): the CRD there would shadow it, and deleting
the CRD would delete every member Cluster. --with-crd is for an apiserver that serves Cluster from the CRD only;
with --kubeconfig it first lists that apiserver's APIServices and refuses (exit 1) if it is a Karmada control plane.

Examples:
  $ cluster-probe manifests --only karmada-apiserver | kubectl --kubeconfig karmada-apiserver.config apply -f -
  $ cluster-probe manifests --only host --image registry.example/cluster-probe:v0.1.0 | kubectl apply -f -
  $ cluster-probe manifests --ca-file certs/ca.crt --url https://cluster-probe-webhook.cluster-probe-system.svc:443 \\
      --only webhooks                          # by URL, as karmada-apiserver reaches webhooks
  $ cluster-probe manifests --only crd-served --with-crd --ca-file certs/ca.crt --kubeconfig standin.config \\
      | kubectl --kubeconfig standin.config apply -f -
  $ cluster-probe manifests --out manifests     # regenerate the committed files (the CRD: npm run generate)`,
    )
    .action(async (flags: ManifestsFlags) => {
      if (flags.krewUri !== undefined && flags.krewArchive === undefined)
        throw new Error('--krew-uri goes with --krew-archive FILE');
      if (flags.krewLauncher) {
        const { KREW_LAUNCHER } = await import('../deploy/krew.js');
        process.stdout.write(KREW_LAUNCHER);
        return;
      }
      if (flags.krewArchive !== undefined) {
        const { krewManifestYaml, sha256File } = await import('../deploy/krew.js');
        const pkg = JSON.parse(await readFile(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
        let sha256: string;
        try {
          sha256 = sha256File(flags.krewArchive);
        } catch (err) {
          throw new Error(
            `--krew-archive ${flags.krewArchive}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`,
          );
        }
        process.stdout.write(krewManifestYaml({ version: pkg.version, sha256, uri: flags.krewUri }));
        return;
      }
      if (flags.service && flags.url) throw new Error('--service and --url exclude each other; give one');
      if (flags.withCrd && !flags.out && flags.only !== 'crd-served') {
        throw new Error(
          `--with-crd goes with --only crd-served, not --only ${flags.only}: the CRD is for an apiserver that serves ` +
            'Cluster from it, never for a Karmada control plane',
        );
      }
      if (flags.kubeconfig && !flags.withCrd) throw new Error('--kubeconfig checks a target for --with-crd; add it');
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
      } else if (flags.out || WITH_CONFIGURATIONS.includes(flags.only)) {
        process.stderr.write(
          'cluster-probe manifests: no --ca-file; the webhook configurations carry no caBundle, so the apiserver ' +
            'will verify the webhook against its system roots\n',
        );
      }
      const packagedCrd = path.join(packageRoot(), 'manifests', CRD_PATH);
      if (flags.out) {
        for (const [file, text] of Object.entries(renderManifests(options))) {
          await mkdir(path.dirname(path.join(flags.out, file)), { recursive: true });
          await writeFile(path.join(flags.out, file), text);
        }
        const crdTarget = path.join(flags.out, CRD_PATH);
        if (flags.withCrd && !samePath(packagedCrd, crdTarget)) await copyFile(packagedCrd, crdTarget);
        else if (!existsSync(crdTarget)) {
          process.stderr.write(
            `cluster-probe manifests: ${CRD_SERVED_OVERLAY}/ needs ${CRD_PATH}, not written: add --with-crd to ` +
              'copy it (only for an apiserver that serves Cluster from the CRD, never Karmada)\n',
          );
        }
        process.stderr.write(`cluster-probe manifests: wrote ${flags.out}\n`);
        return;
      }
      let crdYaml: string | undefined;
      if (flags.withCrd) {
        if (flags.kubeconfig) {
          try {
            await assertNotKarmadaControlPlane(flags.kubeconfig);
          } catch (err) {
            if (!(err instanceof KarmadaControlPlaneError)) throw err;
            process.stderr.write(`cluster-probe manifests: ${err.message}\n`);
            process.exitCode = 1;
            return;
          }
        } else {
          process.stderr.write(
            'cluster-probe manifests: printing the Cluster CRD; never apply it to a Karmada control plane ' +
              '(--kubeconfig FILE checks the target first)\n',
          );
        }
        crdYaml = await readFile(packagedCrd, 'utf8');
      }
      process.stdout.write(renderManifestStream(flags.only, options, crdYaml));
    });
}
