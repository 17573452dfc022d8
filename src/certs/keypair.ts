// Reads and checks a serving key pair (tls.crt + tls.key): parseable, matching, within validity, usable by node:tls.
// A pair that fails any check is reported with the reason and never handed to the server.
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { TLS_CERT_FILE, TLS_KEY_FILE } from './files.js';

export interface LoadedKeyPair {
  cert: string;
  key: string;
  /** SHA-256 over certificate and key, to tell a changed pair from a touched one. */
  hash: string;
  /** Facts safe to log: no key material. */
  subject: string;
  serialNumber: string;
  notAfter: string;
  fingerprint256: string;
}

export class KeyPairError extends Error {
  override name = 'KeyPairError';
}

export function hashPair(cert: string, key: string): string {
  return createHash('sha256').update(cert).update('\0').update(key).digest('hex');
}

/** Checks PEM text; throws KeyPairError naming what is wrong. */
export function checkKeyPair(cert: string, key: string, now: Date = new Date()): LoadedKeyPair {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new KeyPairError(`${TLS_CERT_FILE} is not a PEM certificate: ${(err as Error).message}`);
  }
  let privateKey;
  try {
    privateKey = createPrivateKey(key);
  } catch (err) {
    throw new KeyPairError(`${TLS_KEY_FILE} is not a PEM private key: ${(err as Error).message}`);
  }
  if (!x509.checkPrivateKey(privateKey)) {
    throw new KeyPairError(`${TLS_KEY_FILE} does not belong to the certificate in ${TLS_CERT_FILE}`);
  }
  if (new Date(x509.validTo).getTime() < now.getTime()) {
    throw new KeyPairError(`${TLS_CERT_FILE} expired at ${x509.validTo}`);
  }
  try {
    createSecureContext({ cert, key, minVersion: 'TLSv1.2' });
  } catch (err) {
    throw new KeyPairError(`node:tls refuses the pair: ${(err as Error).message}`);
  }
  return {
    cert,
    key,
    hash: hashPair(cert, key),
    subject: x509.subject,
    serialNumber: x509.serialNumber,
    notAfter: x509.validTo,
    fingerprint256: x509.fingerprint256,
  };
}

/** Reads both files (following the `..data` symlinks of a Secret volume) and checks them. */
export async function readKeyPair(dir: string): Promise<{ cert: string; key: string }> {
  const [cert, key] = await Promise.all([
    readFile(path.join(dir, TLS_CERT_FILE), 'utf8'),
    readFile(path.join(dir, TLS_KEY_FILE), 'utf8'),
  ]);
  return { cert, key };
}
