// Defaulting and migration: kubelet defaults, copies not mutations, the legacy annotation in both probe locations,
// the patch applies, a second run changes nothing, and nothing the user wrote is lost.
import { expect } from 'chai';
import fastJsonPatch from 'fast-json-patch';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { HANDLER_DEFAULTS, TIMING_DEFAULTS } from '../../../packages/schema/src/api/index.js';
import {
  defaultCluster,
  defaultProbe,
  migrateCluster,
  validateCluster,
} from '../../../packages/schema/src/schema/index.js';

type Obj = Record<string, unknown>;
const fixture = (name: string): Obj => parse(readFileSync(`test/fixtures/clusters/${name}`, 'utf8')) as Obj;
const LEGACY = 'cluster.karmada.io/health-checker';
const PROBE = 'cluster.karmada.io/liveness-probe';

function legacyCluster(value: string, extra: Obj = {}): Obj {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member-legacy', annotations: { [LEGACY]: value, 'team.example.com/owner': 'platform' } },
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', ...extra },
  };
}

describe('defaultCluster', () => {
  it('fills in the kubelet defaults for an httpGet probe', () => {
    const out = defaultCluster({ spec: { syncMode: 'Push', livenessProbe: { httpGet: { port: 80 } } } });
    expect(out.spec.livenessProbe).to.deep.equal({
      httpGet: { port: 80, ...HANDLER_DEFAULTS.httpGet },
      ...TIMING_DEFAULTS,
    });
  });
  it("writes exactly what Kubernetes' SetDefaults_Probe writes: no initialDelaySeconds, so no drift", () => {
    const kubelet = {
      spec: {
        syncMode: 'Push',
        livenessProbe: {
          httpGet: { port: 80, ...HANDLER_DEFAULTS.httpGet },
          ...TIMING_DEFAULTS,
        },
      },
    };
    expect(defaultCluster(kubelet)).to.deep.equal(kubelet);
    expect(defaultProbe({ tcpSocket: { port: 1 } })).not.to.have.property('initialDelaySeconds');
  });
  it('defaults the grpc service to "" and the apiServer path to /readyz', () => {
    expect(defaultProbe({ grpc: { port: 9090 } }).grpc).to.deep.equal({ port: 9090, ...HANDLER_DEFAULTS.grpc });
    expect(defaultProbe({ apiServer: {} }).apiServer).to.deep.equal({ ...HANDLER_DEFAULTS.apiServer });
  });
  it('keeps what the user set', () => {
    const out = defaultProbe({ tcpSocket: { port: 1 }, periodSeconds: 30, failureThreshold: 5 });
    expect(out.periodSeconds).to.equal(30);
    expect(out.failureThreshold).to.equal(5);
  });
  it('returns a copy and never mutates its argument', () => {
    const input = { spec: { syncMode: 'Push', livenessProbe: { httpGet: { port: 80 } } } };
    const before = JSON.stringify(input);
    const out = defaultCluster(input);
    expect(JSON.stringify(input)).to.equal(before);
    expect(out).to.not.equal(input);
  });
  it('defaults a probe held in the annotation, and leaves its text alone when nothing is added', () => {
    const out = defaultCluster({ metadata: { annotations: { [PROBE]: '{"tcpSocket":{"port":6443}}' } }, spec: {} });
    const probe = JSON.parse(out.metadata.annotations[PROBE]) as Obj;
    expect(probe.periodSeconds).to.equal(TIMING_DEFAULTS.periodSeconds);
    const again = defaultCluster(out);
    expect(again.metadata.annotations[PROBE]).to.equal(out.metadata.annotations[PROBE]);
  });
  it('leaves an annotation that is not JSON for validation to report', () => {
    const out = defaultCluster({ metadata: { annotations: { [PROBE]: '{oops' } } });
    expect(out.metadata.annotations[PROBE]).to.equal('{oops');
  });
});

describe('migrateCluster', () => {
  it('turns a service into an HTTPS httpGet with the old 10 s timeout and removes only that annotation', () => {
    const input = legacyCluster(
      '{"service":{"namespace":"some-system","name":"member-dev-health","port":80,"path":"/healthz"}}',
    );
    const { object, patch, warnings } = migrateCluster(input, { probeLocation: 'field' });
    const out = object as { metadata: { annotations: Obj }; spec: Obj };
    expect(out.spec.livenessProbe).to.deep.equal({
      httpGet: { scheme: 'HTTPS', host: 'member-dev-health.some-system.svc', port: 80, path: '/healthz' },
      timeoutSeconds: 10,
    });
    expect(out.metadata.annotations).to.deep.equal({ 'team.example.com/owner': 'platform' });
    expect(warnings).to.deep.equal([
      'migrated annotation cluster.karmada.io/health-checker into spec.livenessProbe.httpGet',
    ]);
    const applied = fastJsonPatch.applyPatch(structuredClone(input), patch as fastJsonPatch.Operation[]).newDocument;
    expect(applied).to.deep.equal(object);
  });
  it('defaults the service port to 443 and the path to /', () => {
    const { object } = migrateCluster(legacyCluster('{"service":{"namespace":"ns","name":"svc"}}'), {
      probeLocation: 'field',
    });
    expect(object.spec?.livenessProbe?.httpGet).to.deep.equal({
      scheme: 'HTTPS',
      host: 'svc.ns.svc',
      port: 443,
      path: '/',
    });
  });
  it('splits a url into scheme, host, port and path (query kept) and keeps the caBundle', () => {
    const ca = readFileSync('test/fixtures/schema/ca.b64', 'utf8').trim();
    const { object } = migrateCluster(
      legacyCluster(JSON.stringify({ url: 'http://[fd00::9]:8080/health?full=1', caBundle: ca })),
      { probeLocation: 'field' },
    );
    expect(object.spec?.livenessProbe?.httpGet).to.deep.equal({
      scheme: 'HTTP',
      host: 'fd00::9',
      port: 8080,
      path: '/health?full=1',
      caBundle: ca,
    });
  });
  it('writes the probe into the annotation with --probe-location=annotation', () => {
    const { object } = migrateCluster(legacyCluster('{"url":"https://h.example.com/healthz"}'), {
      probeLocation: 'annotation',
    });
    const ann = (object as { metadata: { annotations: Record<string, string> } }).metadata.annotations;
    expect(ann[LEGACY]).to.equal(undefined);
    expect(JSON.parse(ann[PROBE] ?? '')).to.deep.equal({
      httpGet: { scheme: 'HTTPS', host: 'h.example.com', port: 443, path: '/healthz' },
      timeoutSeconds: 10,
    });
  });
  it('moves spec.livenessProbe into the annotation, and back', () => {
    const withField = {
      metadata: { name: 'a' },
      spec: { syncMode: 'Push', livenessProbe: { tcpSocket: { port: 22 } } },
    };
    const toAnn = migrateCluster(withField, { probeLocation: 'annotation' });
    expect((toAnn.object as { spec: Obj }).spec.livenessProbe).to.equal(undefined);
    const back = migrateCluster(toAnn.object, { probeLocation: 'field' });
    expect(back.object).to.deep.equal({ metadata: { name: 'a', annotations: {} }, spec: withField.spec });
  });
  it('is idempotent: a second run yields no patch', () => {
    for (const location of ['field', 'annotation'] as const) {
      const first = migrateCluster(fixture('member-legacy.yaml'), { probeLocation: location });
      const second = migrateCluster(first.object, { probeLocation: location });
      expect(second.patch).to.deep.equal([]);
      expect(second.warnings).to.deep.equal([]);
    }
  });
  it('removes an annotation the field already carries', () => {
    const input = legacyCluster('{"url":"https://h.example.com:8443/"}', {
      livenessProbe: {
        httpGet: { scheme: 'HTTPS', host: 'h.example.com', port: 8443 },
        timeoutSeconds: 10,
        periodSeconds: 5,
      },
    });
    const { object, warnings } = migrateCluster(input, { probeLocation: 'field' });
    expect((object as { metadata: { annotations: Obj } }).metadata.annotations[LEGACY]).to.equal(undefined);
    expect(object.spec?.livenessProbe?.periodSeconds).to.equal(5);
    expect(warnings).to.deep.equal([
      'removed annotation cluster.karmada.io/health-checker: spec.livenessProbe already carries it',
    ]);
  });
  it('refuses an annotation that disagrees with the field, naming both', () => {
    const input = legacyCluster('{"url":"https://h.example.com:8443/"}', {
      livenessProbe: { httpGet: { scheme: 'HTTPS', host: 'h.example.com', port: 9443 }, timeoutSeconds: 10 },
    });
    expect(migrateCluster(input, { probeLocation: 'field' }))
      .to.have.property('errors')
      .that.deep.equals([
        {
          field: 'metadata.annotations[cluster.karmada.io/health-checker]',
          type: 'FieldValueForbidden',
          detail:
            'disagrees with spec.livenessProbe (httpGet.port is 9443, the annotation says 8443); remove the annotation or make them agree',
          message:
            'metadata.annotations[cluster.karmada.io/health-checker]: Forbidden: disagrees with spec.livenessProbe (httpGet.port is 9443, the annotation says 8443); remove the annotation or make them agree',
        },
      ]);
  });
  it('refuses malformed JSON and unknown keys, and leaves its input untouched', () => {
    for (const bad of ['{"service":', '{"service":{"namespace":"a","name":"b"},"extra":1}']) {
      const input = legacyCluster(bad);
      const before = JSON.stringify(input);
      const { errors } = migrateCluster(input, { probeLocation: 'field' });
      expect(errors.map((e) => e.message).join('; ')).to.contain(LEGACY);
      expect(JSON.stringify(input)).to.equal(before);
    }
  });
  it('leaves a Cluster without annotations alone', () => {
    const input = fixture('member-dev.yaml');
    expect(migrateCluster(input, { probeLocation: 'field' })).to.deep.equal({
      object: input,
      patch: [],
      warnings: [],
      errors: [],
    });
  });
  it('produces a Cluster that validates, once defaulted', () => {
    const { object } = migrateCluster(fixture('member-legacy.yaml'), { probeLocation: 'field' });
    const cluster = defaultCluster(object);
    expect(validateCluster(cluster)).to.deep.equal({ valid: true, errors: [], warnings: [], object: cluster });
  });
});

describe('annotation JSON errors', () => {
  it('name the position and never echo the annotation text (it may hold a token or caBundle)', () => {
    for (const raw of ['Bearer SUPERSECRETTOKEN-0123456789-abcdefghijklmnopqrstuvwxyz', '{"url": SUPERSECRET}']) {
      const r = validateCluster({
        metadata: { name: 'm', annotations: { [LEGACY]: raw } },
        spec: { syncMode: 'Push' },
      });
      expect(r.errors).to.have.length(1);
      expect(r.errors[0]?.message).to.match(
        /^metadata\.annotations\[cluster\.karmada\.io\/health-checker\]: Invalid value: invalid JSON/,
      );
      expect(r.errors[0]?.message).to.not.contain('SUPER');
    }
  });
});
