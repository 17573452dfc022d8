// Builds (and caches) TLS contexts from a caBundle, so a probe verifies against the right roots without re-parsing the
// PEM on every run. A bundle that is not base64 PEM is a configuration error. Depends only on node:tls/crypto.
import { X509Certificate } from 'node:crypto';
import { createSecureContext, type SecureContext } from 'node:tls';
import { messageOf, pemCertificateBlocks } from '@karmada-cluster-probe/schema/api';

/** On failure, `message` is `field: detail`; `field` and `detail` are kept apart for a caller that names its own. */
export type ContextResult =
  { ok: true; context: SecureContext } | { ok: false; message: string; field: string; detail: string };

function refused(field: string, detail: string): ContextResult {
  return { ok: false, message: `${field}: ${detail}`, field, detail };
}

const cache = new Map<string, ContextResult>();
const MAX_CACHED = 256;

/** Checks a PEM bundle holds at least one certificate and that each one parses. */
export function checkPemBundle(pem: string): string | undefined {
  const blocks = pemCertificateBlocks(pem);
  if (blocks === null) return 'no PEM certificate found';
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (e) {
      return `a certificate does not parse: ${messageOf(e)}`;
    }
  }
  return undefined;
}

function build(pem: string, field: string): ContextResult {
  const problem = checkPemBundle(pem);
  if (problem !== undefined) return refused(field, problem);
  try {
    return { ok: true, context: createSecureContext({ ca: pem }) };
  } catch (e) {
    return refused(field, messageOf(e));
  }
}

function remember(key: string, value: ContextResult): ContextResult {
  if (cache.size >= MAX_CACHED) {
    const oldest = cache.keys().next();
    if (oldest.done !== true) cache.delete(oldest.value);
  }
  cache.set(key, value);
  return value;
}

/** A context trusting only the CAs of a base64-encoded PEM bundle (the API's caBundle). */
export function contextFromBase64(caBundle: string, field: string): ContextResult {
  const key = `b64:${caBundle}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const compact = caBundle.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0)
    return remember(key, refused(field, 'not valid base64'));
  return remember(key, build(Buffer.from(compact, 'base64').toString('utf8'), `${field}: base64 of PEM`));
}

/** A context trusting only the CAs of a PEM bundle (credentials handed in by the caller). */
export function contextFromPem(pem: string, field: string): ContextResult {
  const key = `pem:${pem}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  return remember(key, build(pem, field));
}
