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

export async function makeControlPlanePki(): Promise<ControlPlanePki> {
  const caPair = await makeCa('karmada-cluster-probe-e2e-ca');
  const ca = { cert: caPair.cert, private: caPair.key };
  const signer = { key: ca.private, cert: ca.cert };
  const [serving, admin] = await Promise.all([
    generate([{ name: 'commonName', value: 'kube-apiserver' }], {
      algorithm: ALGORITHM,
      ca: signer,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 2, value: 'kubernetes' },
            { type: 2, value: 'kubernetes.default' },
            { type: 2, value: 'kubernetes.default.svc' },
            { type: 7, ip: '127.0.0.1' },
            { type: 7, ip: '10.0.0.1' },
          ],
        },
      ],
    }),
    // The apiserver maps a client certificate's CN to the user and O to its groups; system:masters is cluster-admin.
    generate(
      [
        { name: 'commonName', value: 'admin' },
        { name: 'organizationName', value: 'system:masters' },
      ],
      {
        algorithm: ALGORITHM,
        ca: signer,
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
          { name: 'extKeyUsage', clientAuth: true },
        ],
      },
    ),
  ]);
  const serviceAccount = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    ca: { cert: ca.cert, key: ca.private },
    serving: { cert: serving.cert, key: serving.private },
    admin: { cert: admin.cert, key: admin.private },
    serviceAccount,
  };
}

/**
 * A serving certificate for 127.0.0.1, localhost and `dnsNames` signed by `ca` (Karmada's aggregated apiserver, whose
 * certificate the aggregator checks against `<service>.<namespace>.svc`; karmada-webhook).
 */
export async function signServingPair(ca: KeyPair, commonName: string, dnsNames: string[] = []): Promise<KeyPair> {
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
        ],
      },
    ],
  });
  return { cert: pair.cert, key: pair.private };
}

/** A client certificate (CN = user, O = group) signed by `ca`: the aggregation layer's front-proxy client. */
export async function signClientPair(ca: KeyPair, commonName: string): Promise<KeyPair> {
  const pair = await generate([{ name: 'commonName', value: commonName }], {
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
