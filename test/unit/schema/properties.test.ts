// Property tests: for any valid probe, defaulting is idempotent and the result validates; for any input, validation
// never throws; migration followed by validation never loses a value the user wrote.
import { expect } from 'chai';
import fc from 'fast-check';
import {
  defaultCluster,
  defaultProbe,
  migrateCluster,
  validateCluster,
  validateProbe,
} from '../../../packages/schema/src/schema/index.js';

const label = fc.stringMatching(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/);
const host = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.')),
  fc.ipV4().filter((ip) => !ip.startsWith('169.254.')),
);
const port = fc.integer({ min: 1, max: 65535 });
const portName = fc.stringMatching(/^[a-z][-a-z0-9]{0,13}[a-z0-9]$/).filter((s) => !s.includes('--'));
const path = fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`));

const handler = fc.oneof(
  fc.record({
    httpGet: fc.record(
      {
        scheme: fc.constantFrom('HTTP', 'HTTPS'),
        host,
        port: fc.oneof(port, portName),
        path,
        httpHeaders: fc.array(
          fc.record({ name: fc.stringMatching(/^[-A-Za-z0-9]{1,20}$/), value: fc.string({ maxLength: 20 }) }),
          { maxLength: 3 },
        ),
      },
      { requiredKeys: ['port'] },
    ),
  }),
  fc.record({ tcpSocket: fc.record({ host, port: fc.oneof(port, portName) }, { requiredKeys: ['port'] }) }),
  fc.record({ grpc: fc.record({ host, port, service: fc.string({ maxLength: 20 }) }, { requiredKeys: ['port'] }) }),
  fc.record({
    apiServer: fc.record({ path, minReadyNodes: fc.nat(100), minReadyPods: fc.nat(100) }, { requiredKeys: [] }),
  }),
);
const timing = fc.record(
  {
    initialDelaySeconds: fc.nat(3600),
    timeoutSeconds: fc.integer({ min: 1, max: 60 }),
    periodSeconds: fc.integer({ min: 1, max: 3600 }),
    successThreshold: fc.integer({ min: 1, max: 10 }),
    failureThreshold: fc.integer({ min: 1, max: 10 }),
  },
  { requiredKeys: [] },
);
const validProbe = fc.tuple(handler, timing).map(([h, t]) => ({ ...h, ...t }));

function clusterWith(probe: unknown): Record<string, unknown> {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member-prop' },
    spec: {
      syncMode: 'Push',
      apiEndpoint: 'https://10.9.8.7:6443',
      secretRef: { namespace: 'karmada-cluster', name: 'member-prop' },
      livenessProbe: probe,
    },
  };
}

describe('schema properties', () => {
  it('any valid probe validates, and defaulting it is idempotent and still valid', () => {
    fc.assert(
      fc.property(validProbe, (probe) => {
        const cluster = clusterWith(probe);
        expect(validateCluster(cluster).errors).to.deep.equal([]);
        const once = defaultCluster(cluster);
        expect(defaultCluster(once)).to.deep.equal(once);
        expect(validateCluster(once).errors).to.deep.equal([]);
        // Defaulting only adds: every value the user set is still there.
        const defaulted = defaultProbe(probe) as Record<string, unknown>;
        for (const [k, v] of Object.entries(probe)) {
          if (typeof v === 'object') expect(defaulted[k]).to.deep.include(v);
          else expect(defaulted[k]).to.equal(v);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('validation never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true }), (junk) => {
        const r = validateCluster(junk);
        expect(r.valid).to.be.a('boolean');
        validateCluster({ metadata: { name: 'x', annotations: junk }, spec: junk });
        validateCluster(clusterWith(junk));
        validateProbe(junk);
      }),
      { numRuns: 500 },
    );
  });

  it('validation never throws on a valid Cluster with one field replaced by anything', () => {
    const keys = [
      'syncMode',
      'apiEndpoint',
      'secretRef',
      'taints',
      'resourceModels',
      'zones',
      'proxyURL',
      'livenessProbe',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...keys), fc.anything(), (key, value) => {
        const c = clusterWith({ tcpSocket: { port: 1 } }) as { spec: Record<string, unknown> };
        c.spec[key] = value;
        const r = validateCluster(c);
        expect(r.errors.every((e) => typeof e.message === 'string' && e.message.length > 0)).to.equal(true);
      }),
      { numRuns: 500 },
    );
  });

  it('migration then validation never loses a value the user wrote', () => {
    const legacy = fc.oneof(
      fc.record({
        service: fc.record({ namespace: label, name: label, port, path }, { requiredKeys: ['namespace', 'name'] }),
      }),
      fc.record({
        url: fc
          .tuple(fc.constantFrom('http', 'https'), host, fc.option(port), path)
          .map(([s, h, p, pa]) => `${s}://${h}${p === null ? '' : `:${p}`}${pa}`),
      }),
    );
    fc.assert(
      fc.property(legacy, fc.constantFrom('field' as const, 'annotation' as const), (value, location) => {
        const input = {
          metadata: {
            name: 'member-prop',
            labels: { team: 'a' },
            annotations: { 'cluster.karmada.io/health-checker': JSON.stringify(value), other: 'kept' },
          },
          spec: { syncMode: 'Push', apiEndpoint: 'https://10.1.1.1:6443', region: 'r1' },
        };
        const result = migrateCluster(input, { probeLocation: location });
        if (result.errors.length > 0) {
          // Refusing is allowed only with field errors that say why (and the object unchanged); dropping is not.
          for (const e of result.errors) expect(e.message).to.match(/^metadata\.annotations\[/);
          expect(result.object).to.deep.equal(input);
          return;
        }
        const out = result.object as typeof input & { spec: { livenessProbe?: Record<string, unknown> } };
        const probe = (
          location === 'field'
            ? out.spec.livenessProbe
            : JSON.parse(
                (out.metadata.annotations as Record<string, string>)['cluster.karmada.io/liveness-probe'] ?? 'null',
              )
        ) as {
          httpGet: { host: string; port: number; path: string };
        };
        if ('service' in value) {
          const s = value.service;
          expect(probe.httpGet.host).to.equal(`${s.name}.${s.namespace}.svc`);
          expect(probe.httpGet.port).to.equal(s.port ?? 443);
          expect(probe.httpGet.path).to.equal(s.path ?? '/');
        } else {
          const u = new URL(value.url);
          expect(`${probe.httpGet.host}`).to.equal(u.hostname);
          expect(probe.httpGet.path).to.equal(`${u.pathname}${u.search}`);
        }
        expect(out.metadata.annotations.other).to.equal('kept');
        expect(out.metadata.labels).to.deep.equal({ team: 'a' });
        expect(out.spec.region).to.equal('r1');
        const r = validateCluster(defaultCluster(out), { probeLocation: location });
        expect(r.errors).to.deep.equal([]);
      }),
      { numRuns: 300 },
    );
  });
});
