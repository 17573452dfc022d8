// The local control plane's PKI: a throwaway CA, the apiserver's serving certificate, an admin client certificate
// and the service-account signing key pair. Knows nothing of the processes that use it.
import { generateKeyPairSync } from 'node:crypto';
import { generate } from 'selfsigned';

export interface KeyPair {
  cert: string;
  key: string;
}

export interface ControlPlanePki {
  ca: KeyPair;
  serving: KeyPair;
  admin: KeyPair;
  serviceAccount: { publicKey: string; privateKey: string };
}

// selfsigned signs with SHA-1 unless told otherwise, and Go's TLS stack rejects SHA-1 signatures.
const ALGORITHM = 'sha256';

/** A throwaway certificate authority. */
export async function makeCa(commonName: string): Promise<KeyPair> {
  const ca = await generate([{ name: 'commonName', value: commonName }], {
    algorithm: ALGORITHM,
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  return { cert: ca.cert, key: ca.private };
}

/** `extraIps`: addresses besides 127.0.0.1 the apiserver serves on (a bridge address Pods reach it through). */
export async function makeControlPlanePki(extraIps: readonly string[] = []): Promise<ControlPlanePki> {
  const ca = await makeCa('karmada-cluster-probe-e2e-ca');
  const [serving, admin] = await Promise.all([
    signServingPair(
      ca,
      'kube-apiserver',
      ['kubernetes', 'kubernetes.default', 'kubernetes.default.svc'],
      ['10.0.0.1', ...extraIps], // 10.0.0.1: the first address of --service-cluster-ip-range, the `kubernetes` Service
    ),
    // The apiserver maps a client certificate's CN to the user and O to its groups; system:masters is cluster-admin.
    signClientPair(ca, 'admin', 'system:masters'),
  ]);
  const serviceAccount = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { ca, serving, admin, serviceAccount };
}

/**
 * A serving certificate for 127.0.0.1, localhost and `dnsNames` signed by `ca` (Karmada's aggregated apiserver, whose
 * certificate the aggregator checks against `<service>.<namespace>.svc`; karmada-webhook).
 */
export async function signServingPair(
  ca: KeyPair,
  commonName: string,
  dnsNames: string[] = [],
  ips: string[] = [],
): Promise<KeyPair> {
  const pair = await generate([{ name: 'commonName', value: commonName }], {
    algorithm: ALGORITHM,
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          ...dnsNames.map((value) => ({ type: 2 as const, value })),
          { type: 7, ip: '127.0.0.1' },
          ...ips.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  return { cert: pair.cert, key: pair.private };
}

/** A client certificate (CN = user, O = group) signed by `ca`: the admin, the aggregation layer's front-proxy client. */
export async function signClientPair(ca: KeyPair, commonName: string, organization?: string): Promise<KeyPair> {
  const subject = [{ name: 'commonName', value: commonName }];
  if (organization !== undefined) subject.push({ name: 'organizationName', value: organization });
  const pair = await generate(subject, {
    algorithm: ALGORITHM,
    ca: { key: ca.key, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  });
  return { cert: pair.cert, key: pair.private };
}
