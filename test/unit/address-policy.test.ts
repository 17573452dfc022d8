// One address policy at admission and at connect time: the shared table of spellings (address-spellings.ts) is run
// through the schema library (a probe's host, the host that spec.apiEndpoint gives, the legacy annotation's url)
// and through the probe engine's connect-time guard, and both must give the table's verdict.
import { expect } from 'chai';
import net from 'node:net';
import { AddressGuard, runProbe } from '../../packages/probe/src/index.js';
import {
  DEFAULT_DENY_CIDRS,
  migrateCluster,
  validateCluster,
  type FieldError,
} from '../../packages/schema/src/schema/index.js';
import {
  DEFAULT_DENY_CIDRS as WEBHOOK_DENY_CIDRS,
  decodeReview,
  isRejection,
  mutate,
  validate,
} from '../../src/webhook/index.js';
import { SPELLINGS, type Verdict } from './address-spellings.js';

const LEGACY = 'cluster.karmada.io/health-checker';

function cluster(spec: Record<string, unknown>, annotations?: Record<string, string>): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member-addr', ...(annotations !== undefined ? { annotations } : {}) },
    spec: { syncMode: 'Push', secretRef: { namespace: 'karmada-cluster', name: 'member-addr' }, ...spec },
  };
}

/** The host as it goes in a URL (IPv6 in brackets), or undefined when a URL cannot carry it (a zone). */
function urlHost(host: string): string | undefined {
  if (host.includes('%')) return undefined;
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/** The part of an admission detail that carries the verdict. */
function admissionWords(v: Verdict): string {
  return v === 'unspecified' ? 'is the unspecified address' : `is in the denied address range ${v};`;
}

function forbiddenAt(errors: FieldError[], field: string): FieldError[] {
  return errors.filter((e) => e.field === field && e.type === 'FieldValueForbidden');
}

function expectAdmission(errors: FieldError[], field: string, v: Verdict, what: string): void {
  const found = forbiddenAt(errors, field);
  if (v === 'allowed') {
    expect(
      found.map((e) => e.message),
      what,
    ).to.deep.equal([]);
    return;
  }
  expect(found.length, `${what}: ${JSON.stringify(errors.map((e) => e.message))}`).to.equal(1);
  expect(found[0]?.detail, what).to.contain(admissionWords(v));
}

let closedPort = 0;
before(async () => {
  // A port nobody listens on: allowed loopback spellings are refused there, quickly and offline.
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  closedPort = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
});

describe('the address policy: one verdict for every spelling, at admission and at connect time', () => {
  const guard = new AddressGuard();

  for (const { host, verdict, note } of SPELLINGS) {
    describe(`${JSON.stringify(host)} (${note}) is ${verdict === 'allowed' ? 'allowed' : `denied: ${verdict}`}`, () => {
      it('as a probe host at admission, with the default deny list and with none passed', () => {
        for (const handler of ['httpGet', 'tcpSocket', 'grpc'] as const) {
          const obj = cluster({ livenessProbe: { [handler]: { host, port: 8080 } } });
          const field = `spec.livenessProbe.${handler}.host`;
          expectAdmission(validateCluster(obj).errors, field, verdict, `${handler}, no options`);
          expectAdmission(
            validateCluster(obj, { denyHosts: [...DEFAULT_DENY_CIDRS] }).errors,
            field,
            verdict,
            `${handler}, default list`,
          );
        }
      });

      it('at connect time in the probe engine', async () => {
        if (verdict === 'allowed') {
          expect(() => guard.checkLiteral(host)).not.to.throw();
          // Loopback spellings really connect (and are refused): the guard let them through.
          if (/^(127\.0\.0\.1|127\.1|0x7f\.1|2130706433|::1|::ffff:127\.0\.0\.1)$/.test(host)) {
            const r = await runProbe({ tcpSocket: { host, port: closedPort } });
            expect(r.result, r.message).to.equal('failure');
            expect(r.message).to.contain('connection refused');
          }
          return;
        }
        expect(() => guard.checkLiteral(host)).to.throw(verdict === 'unspecified' ? 'unspecified address' : verdict);
        const r = await runProbe({ tcpSocket: { host, port: 80 } });
        expect(r.result, r.message).to.equal('error');
        expect(r.message).to.contain(verdict === 'unspecified' ? 'unspecified address' : `(${verdict})`);
      });

      const inUrl = urlHost(host);
      // The URL parser refuses some spellings outright (a name ending in a bad number); those are no endpoint.
      const parses = inUrl !== undefined && URL.canParse(`https://${inUrl}:6443`);
      if (parses) {
        it('as the host of spec.apiEndpoint, for the apiServer handler and for a probe that names no host', async () => {
          const apiEndpoint = `https://${inUrl}:6443`;
          const api = validateCluster(cluster({ apiEndpoint, livenessProbe: { apiServer: {} } })).errors;
          expectAdmission(api, 'spec.apiEndpoint', verdict, 'apiServer');
          const tcp = validateCluster(cluster({ apiEndpoint, livenessProbe: { tcpSocket: { port: 6443 } } })).errors;
          expectAdmission(tcp, 'spec.livenessProbe.tcpSocket.host', verdict, 'tcpSocket without host');
          if (verdict !== 'allowed') {
            const r = await runProbe({ apiServer: {} }, { apiEndpoint });
            expect(r.result, r.message).to.equal('error');
          }
        });

        it("as the legacy annotation's url: denied at admission and by migration, never migrated", () => {
          const obj = cluster({}, { [LEGACY]: JSON.stringify({ url: `http://${inUrl}/healthz` }) });
          const field = `metadata.annotations[${LEGACY}].url`;
          expectAdmission(validateCluster(obj).errors, field, verdict, 'validateCluster');
          if (verdict === 'allowed') {
            expect(migrateCluster(obj, { probeLocation: 'field' }).errors).to.deep.equal([]);
            return;
          }
          const { errors } = migrateCluster(obj, { probeLocation: 'field' });
          expect(errors, 'migrateCluster returns errors').not.to.deep.equal([]);
          expectAdmission(errors, field, verdict, 'migrateCluster');
        });
      }
    });
  }
});

describe('the webhook judges addresses through the schema library', () => {
  const review = (object: unknown) => {
    const r = decodeReview({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: '00000000-0000-0000-0000-00000000a001',
        kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
        resource: { group: 'cluster.karmada.io', version: 'v1alpha1', resource: 'clusters' },
        name: 'member-addr',
        operation: 'CREATE',
        userInfo: { username: 'admin' },
        object,
      },
    });
    if (isRejection(r)) throw new Error(r.message);
    return r;
  };
  const options = { probeLocation: 'field' as const, denyHosts: [...WEBHOOK_DENY_CIDRS] };

  it('/validate denies a probe host that spells the metadata address in hexadecimal', () => {
    const res = validate(review(cluster({ livenessProbe: { tcpSocket: { host: '0xa9fea9fe', port: 80 } } })), options);
    expect(res.response?.allowed).to.equal(false);
    expect(res.response?.status?.message).to.equal(
      'Cluster "member-addr" is invalid: spec.livenessProbe.tcpSocket.host: Forbidden: 0xa9fea9fe (169.254.169.254) is in the denied address range 169.254.0.0/16; probes may not target it',
    );
  });

  it('/mutate denies a legacy url aimed at the metadata service instead of migrating it', () => {
    const obj = cluster({}, { [LEGACY]: JSON.stringify({ url: 'http://2852039166/latest/meta-data' }) });
    const res = mutate(review(obj), options);
    expect(res.response?.allowed).to.equal(false);
    expect(res.response?.patch).to.equal(undefined);
    expect(res.response?.status?.message).to.equal(
      `Cluster "member-addr" is invalid: metadata.annotations[${LEGACY}].url: Forbidden: 169.254.169.254 (the host of the url) is in the denied address range 169.254.0.0/16; probes may not target it`,
    );
  });

  it('/validate denies the unspecified address whatever the deny list says', () => {
    const res = validate(review(cluster({ livenessProbe: { tcpSocket: { host: '0', port: 80 } } })), {
      probeLocation: 'field',
      denyHosts: [],
    });
    expect(res.response?.status?.message).to.equal(
      `Cluster "member-addr" is invalid: spec.livenessProbe.tcpSocket.host: Forbidden: 0 (0.0.0.0) is the unspecified address, which connects to the prober's own host; probes may not target it`,
    );
  });
});
