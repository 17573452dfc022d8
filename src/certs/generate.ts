// Makes the webhook's certificates: a SHA-256 CA and a serving certificate it signs, with the SANs asked for.
// Uses the `selfsigned` package (ECDSA P-256, always sha256); writes ca.crt, ca.key, tls.crt, tls.key into a directory.
// selfsigned (with @peculiar/x509 and its crypto shims under it) is loaded on the first certificate made, never at
// import: `serve` with certificates given, and the reloader, make none (bench/startup, docs/webhook.md).
import { mkdir, readFile, rename, writeFile, access } from 'node:fs/promises';
import { isIP } from 'node:net';
import path from 'node:path';
import type * as Selfsigned from 'selfsigned';
import { CA_CERT_FILE, CA_KEY_FILE, TLS_CERT_FILE, TLS_KEY_FILE } from './files.js';

let selfsigned: Promise<typeof Selfsigned> | undefined;

async function generate(...args: Parameters<typeof Selfsigned.generate>): ReturnType<typeof Selfsigned.generate> {
  selfsigned ??= import('selfsigned');
  return (await selfsigned).generate(...args);
}

export interface PemPair {
  /** PEM certificate. */
  cert: string;
  /** PEM private key (PKCS#8). */
  key: string;
}

export interface ServingCertificateOptions {
  dnsNames: string[];
  ipAddresses: string[];
  /** Subject CN; defaults to the first DNS name (or IP). */
  commonName?: string;
  validityDays?: number;
}

/** Certificates start five minutes in the past so a peer with a slightly slow clock accepts them. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

function validity(days: number): { notBeforeDate: Date; notAfterDate: Date } {
  const notBeforeDate = new Date(Date.now() - CLOCK_SKEW_MS);
  return { notBeforeDate, notAfterDate: new Date(notBeforeDate.getTime() + days * 24 * 3600 * 1000) };
}

/** The names under which a Service is reached inside the cluster (what the apiserver dials is `<name>.<ns>.svc`). */
export function serviceDnsNames(namespace: string, name: string): string[] {
  return [name, `${name}.${namespace}`, `${name}.${namespace}.svc`, `${name}.${namespace}.svc.cluster.local`];
}

export async function createCertificateAuthority(
  options: { commonName?: string; validityDays?: number } = {},
): Promise<PemPair> {
  const pems = await generate([{ name: 'commonName', value: options.commonName ?? 'cluster-probe-webhook-ca' }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    ...validity(options.validityDays ?? 3650),
    extensions: [
      { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

export async function createServingCertificate(ca: PemPair, options: ServingCertificateOptions): Promise<PemPair> {
  for (const ip of options.ipAddresses) {
    if (isIP(ip) === 0) throw new Error(`certificate SAN ${JSON.stringify(ip)} is not an IP address`);
  }
  const commonName = options.commonName ?? options.dnsNames[0] ?? options.ipAddresses[0];
  if (commonName === undefined) throw new Error('a serving certificate needs at least one DNS name or IP address');
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    algorithm: 'sha256',
    keyType: 'ec',
    curve: 'P-256',
    ...validity(options.validityDays ?? 365),
    ca: { cert: ca.cert, key: ca.key },
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          ...options.dnsNames.map((value) => ({ type: 2 as const, value })),
          ...options.ipAddresses.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** Writes a file through a temporary name and a rename, so a reader never sees half of it. */
async function writeAtomically(file: string, content: string, mode: number): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, content, { mode });
  await rename(tmp, file);
}

export async function writeCertificateAuthority(dir: string, ca: PemPair): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeAtomically(path.join(dir, CA_KEY_FILE), ca.key, 0o600);
  await writeAtomically(path.join(dir, CA_CERT_FILE), ca.cert, 0o644);
}

/** Writes tls.key then tls.crt; a reloader that looks in between sees a mismatched pair and keeps the old one. */
export async function writeServingCertificate(dir: string, serving: PemPair): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeAtomically(path.join(dir, TLS_KEY_FILE), serving.key, 0o600);
  await writeAtomically(path.join(dir, TLS_CERT_FILE), serving.cert, 0o644);
}

export async function readCertificateAuthority(dir: string): Promise<PemPair> {
  const [cert, key] = await Promise.all([
    readFile(path.join(dir, CA_CERT_FILE), 'utf8'),
    readFile(path.join(dir, CA_KEY_FILE), 'utf8'),
  ]);
  return { cert, key };
}

async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}

export interface MadeCertificates {
  ca: PemPair;
  serving: PemPair;
}

/**
 * Makes a CA (or reuses the one in `dir`) and a serving certificate signed by it, and writes all four files.
 */
export async function makeCertificates(dir: string, options: ServingCertificateOptions): Promise<MadeCertificates> {
  const haveCa = (await exists(path.join(dir, CA_CERT_FILE))) && (await exists(path.join(dir, CA_KEY_FILE)));
  const ca = haveCa ? await readCertificateAuthority(dir) : await createCertificateAuthority();
  if (!haveCa) await writeCertificateAuthority(dir, ca);
  const serving = await createServingCertificate(ca, options);
  await writeServingCertificate(dir, serving);
  return { ca, serving };
}

/**
 * For `serve --make-certs`: when `dir` has no tls.crt/tls.key, makes a CA and a serving certificate for the given
 * names. Returns whether it made them.
 */
export async function ensureCertificates(dir: string, options: ServingCertificateOptions): Promise<boolean> {
  if ((await exists(path.join(dir, TLS_CERT_FILE))) && (await exists(path.join(dir, TLS_KEY_FILE)))) return false;
  await makeCertificates(dir, options);
  return true;
}
