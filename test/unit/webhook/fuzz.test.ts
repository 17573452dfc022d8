// Property tests (fast-check): random and malformed reviews never get a 5xx and always have their uid echoed; every
// patch applies cleanly, a second round adds nothing, and a well-formed Cluster comes out of mutation valid. Every
// review goes in with a request head as node gives the server one (`req.headers`), through handleReview, the path
// admission-route.ts serves.
import { expect } from 'chai';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import {
  DEFAULT_DENY_CIDRS,
  decodePatch,
  handleReview,
  type AdmissionReview,
  type ReviewHead,
  type WebhookOptions,
} from '../../../src/webhook/index.js';
import {
  defaultCluster,
  diffPatch,
  migrateCluster,
  validateCluster,
} from '../../../packages/schema/src/schema/index.js';

const json: ReviewHead = { 'content-type': 'application/json' };
// A head as node hands one to the server: a media type, maybe an encoding, maybe a length (true, or over the limit).
const head = (body: string) =>
  fc.record(
    {
      'content-type': fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', undefined),
      'content-encoding': fc.constantFrom(undefined, 'identity', 'gzip'),
      'content-length': fc.constantFrom(String(Buffer.byteLength(body)), String(4 * 1024 * 1024), undefined),
    },
    { requiredKeys: [] },
  );
const LEGACY = 'cluster.karmada.io/health-checker';
const PROBE = 'cluster.karmada.io/liveness-probe';

const label = fc.stringMatching(/^[a-z]([-a-z0-9]{0,14}[a-z0-9])?$/);
const uid = fc.uuid();
const location = fc.constantFrom<'field' | 'annotation'>('field', 'annotation');
const port = fc.integer({ min: 1, max: 65535 });
const path = fc.stringMatching(/^\/[a-z0-9/_-]{0,20}$/);
// No xn-- label: Node 20's URL parser refuses one that is not punycode (a.xn--a.example.com), Node 24's accepts it, so
// the legacy annotation's url (read by new URL) migrates on one and not the other (docs/validation.md, `host`).
const host = fc
  .tuple(label, label)
  .filter((labels) => !labels.some((l) => l.startsWith('xn--')))
  .map(([a, b]) => `${a}.${b}.example.com`);

const timing = fc.record(
  {
    initialDelaySeconds: fc.integer({ min: 0, max: 600 }),
    timeoutSeconds: fc.integer({ min: 1, max: 60 }),
    periodSeconds: fc.integer({ min: 1, max: 300 }),
    successThreshold: fc.integer({ min: 1, max: 10 }),
    failureThreshold: fc.integer({ min: 1, max: 10 }),
  },
  { requiredKeys: [] },
);

const handler = fc.oneof(
  fc
    .record(
      {
        port: fc.oneof(port, fc.constantFrom('http', 'https', 'metrics')),
        host,
        path,
        scheme: fc.constantFrom('HTTP', 'HTTPS'),
        httpHeaders: fc.array(fc.record({ name: fc.stringMatching(/^X-[A-Za-z]{1,10}$/), value: fc.string() }), {
          maxLength: 3,
        }),
      },
      { requiredKeys: ['port'] },
    )
    .map((httpGet) => ({ httpGet })),
  fc.record({ port, host }, { requiredKeys: ['port'] }).map((tcpSocket) => ({ tcpSocket })),
  fc.record({ port, host, service: label }, { requiredKeys: ['port'] }).map((grpc) => ({ grpc })),
  fc
    .record({ path, minReadyNodes: fc.nat({ max: 100 }), minReadyPods: fc.nat({ max: 100 }) }, { requiredKeys: [] })
    .map((apiServer) => ({ apiServer })),
);
const probe = fc.tuple(handler, timing).map(([h, t]) => ({ ...h, ...t }));

const legacy = fc.oneof(
  fc
    .record({ namespace: label, name: label, port, path }, { requiredKeys: ['namespace', 'name'] })
    .map((service) => JSON.stringify({ service })),
  fc
    .tuple(fc.constantFrom('http', 'https'), host, port, path)
    .map(([s, h, p, pa]) => JSON.stringify({ url: `${s}://${h}:${p}${pa}` })),
);

/** A well-formed Cluster as a user writes it: the probe in the field, the annotation, the legacy annotation, or none. */
const wellFormedCluster = fc
  .record({
    name: label,
    where: fc.constantFrom('field', 'annotation', 'legacy', 'none'),
    probe,
    legacy,
    otherAnnotations: fc.dictionary(fc.constantFrom('team.example.com/owner', 'note'), fc.string(), { maxKeys: 2 }),
    labels: fc.dictionary(label, label, { maxKeys: 2 }),
  })
  .map(({ name, where, probe, legacy, otherAnnotations, labels }) => {
    const annotations: Record<string, string> = { ...otherAnnotations };
    if (where === 'annotation') annotations[PROBE] = JSON.stringify(probe);
    if (where === 'legacy') annotations[LEGACY] = legacy;
    return {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name, labels, ...(Object.keys(annotations).length ? { annotations } : {}) },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://172.18.0.3:6443',
        secretRef: { namespace: 'karmada-cluster', name },
        ...(where === 'field' ? { livenessProbe: probe } : {}),
      },
    };
  });

function reviewBody(request: Record<string, unknown>, apiVersion = 'admission.k8s.io/v1'): string {
  return JSON.stringify({ apiVersion, kind: 'AdmissionReview', request });
}

function clusterRequest(id: string, object: unknown, operation = 'CREATE'): Record<string, unknown> {
  return {
    uid: id,
    kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
    resource: { group: 'cluster.karmada.io', version: 'v1alpha1', resource: 'clusters' },
    operation,
    object,
  };
}

function options(probeLocation: 'field' | 'annotation'): WebhookOptions {
  return { probeLocation, denyHosts: [...DEFAULT_DENY_CIDRS] };
}

describe('webhook fuzz', function () {
  this.timeout(60_000);

  it('never answers 5xx to arbitrary bytes, JSON values or half-formed reviews', () => {
    const bodies = fc.oneof(
      fc.string(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc
        .record({ apiVersion: fc.anything(), kind: fc.anything(), request: fc.anything() })
        .map((v) => JSON.stringify(v)),
      fc
        .record({
          uid: fc.oneof(uid, fc.anything()),
          kind: fc.anything(),
          operation: fc.anything(),
          object: fc.anything(),
        })
        .map((r) => reviewBody(r)),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('mutate' as const, 'validate' as const),
        bodies.chain((body) => fc.tuple(fc.constant(body), head(body))),
        location,
        (webhook, [body, type], where) => {
          const out = handleReview(webhook, type, body, options(where));
          expect([200, 400, 413, 415]).to.include(out.code);
          if (out.code === 200) {
            const parsed = JSON.parse(body) as { request: { uid: string } };
            expect(out.answer?.response?.uid).to.equal(parsed.request.uid);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("echoes the uid, in the review's apiVersion, for any object in a Cluster review", () => {
    fc.assert(
      fc.property(
        fc.constantFrom('mutate' as const, 'validate' as const),
        uid,
        fc.oneof(fc.anything(), fc.jsonValue(), wellFormedCluster),
        fc.constantFrom('CREATE', 'UPDATE', 'DELETE', 'CONNECT', 'PATCH'),
        fc.constantFrom('admission.k8s.io/v1', 'admission.k8s.io/v1beta1'),
        location,
        (webhook, id, object, operation, apiVersion, where) => {
          const out = handleReview(
            webhook,
            json,
            reviewBody(clusterRequest(id, object, operation), apiVersion),
            options(where),
          );
          expect(out.code).to.equal(200);
          const answer = out.body as AdmissionReview;
          expect(answer.apiVersion).to.equal(apiVersion);
          expect(answer.response?.uid).to.equal(id);
          expect(out.error, 'no handler may throw').to.equal(undefined);
          for (const w of answer.response?.warnings ?? []) expect(w.length).to.be.at.most(120);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('sends patches that apply cleanly to anything, and a second round adds no patch', () => {
    const objects = fc.oneof(
      wellFormedCluster,
      // Well-formed Clusters with random damage: the probe replaced by anything, an annotation by any string.
      fc.tuple(wellFormedCluster, fc.anything(), fc.string()).map(([c, junk, text]) => ({
        ...c,
        metadata: { ...c.metadata, annotations: { [PROBE]: text, [LEGACY]: text } },
        spec: { ...c.spec, livenessProbe: junk },
      })),
      fc.object(),
    );
    fc.assert(
      fc.property(uid, objects, location, (id, object, where) => {
        const first = handleReview('mutate', json, reviewBody(clusterRequest(id, object)), options(where));
        const response = (first.body as AdmissionReview).response;
        expect(first.code).to.equal(200);
        if (response?.patch === undefined) return;
        expect(response.patchType).to.equal('JSONPatch');
        const patch = decodePatch(response.patch);
        const patched = jsonpatch.applyPatch(structuredClone(object), patch as jsonpatch.Operation[], true).newDocument;
        const second = handleReview('mutate', json, reviewBody(clusterRequest(id, patched)), options(where));
        expect((second.body as AdmissionReview).response).to.not.have.property('patch');
      }),
      { numRuns: 1000 },
    );
  });

  it('patches exactly as the diff of the whole Cluster, migrated and defaulted (mutate works on a probe-sized view)', () => {
    const objects = fc.oneof(
      wellFormedCluster,
      // The same with a large status and other fields migration and defaulting never touch, in any key order.
      fc.tuple(wellFormedCluster, fc.jsonValue(), fc.boolean()).map(([c, status, specFirst]) => {
        const { metadata, spec, ...rest } = c;
        return specFirst ? { spec, ...rest, status, metadata } : { ...rest, metadata, spec, status };
      }),
      fc.tuple(wellFormedCluster, fc.anything(), fc.string()).map(([c, junk, text]) => ({
        ...c,
        metadata: { ...c.metadata, annotations: { [PROBE]: text, [LEGACY]: text } },
        spec: { ...c.spec, livenessProbe: junk },
      })),
      fc.record({ metadata: fc.anything(), spec: fc.anything() }, { requiredKeys: [] }),
    );
    fc.assert(
      fc.property(uid, objects, location, (id, generated, where) => {
        const text = JSON.stringify(generated);
        const object = JSON.parse(text) as unknown; // what the webhook receives
        const out = handleReview('mutate', json, reviewBody(clusterRequest(id, object)), options(where));
        const response = (out.body as AdmissionReview).response;
        if (!response?.allowed) return;
        const whole = defaultCluster(migrateCluster(object, { ...options(where), computePatch: false }).object);
        expect(response.patch === undefined ? [] : decodePatch(response.patch)).to.deep.equal(diffPatch(object, whole));
      }),
      { numRuns: 1000 },
    );
  });

  it("never denies for what only validation finds: an invalid probe is the validating webhook's to deny", () => {
    const invalid = {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'member-bad' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://172.18.0.3:6443',
        livenessProbe: { tcpSocket: { port: 70000 }, httpGet: { port: 80 } },
      },
    };
    const body = reviewBody(clusterRequest('bad', invalid));
    expect((handleReview('mutate', json, body, options('field')).body as AdmissionReview).response?.allowed).to.equal(
      true,
    );
    const validated = (handleReview('validate', json, body, options('field')).body as AdmissionReview).response;
    expect(validated?.allowed).to.equal(false);
    expect(validated?.status?.message).to.equal(
      'Cluster "member-bad" is invalid: [spec.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type, spec.livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive]',
    );
  });

  it('turns every well-formed Cluster into one that validates, in both probe locations', () => {
    fc.assert(
      fc.property(uid, wellFormedCluster, location, (id, cluster, where) => {
        const mutated = handleReview('mutate', json, reviewBody(clusterRequest(id, cluster)), options(where));
        const response = (mutated.body as AdmissionReview).response;
        expect(response?.allowed, JSON.stringify(response?.status)).to.equal(true);
        const patched = response?.patch
          ? jsonpatch.applyPatch(structuredClone(cluster), decodePatch(response.patch) as jsonpatch.Operation[], true)
              .newDocument
          : cluster;
        const result = validateCluster(patched, options(where));
        expect(result.errors, JSON.stringify(patched)).to.deep.equal([]);
        const validated = handleReview('validate', json, reviewBody(clusterRequest(id, patched)), options(where));
        expect((validated.body as AdmissionReview).response?.allowed).to.equal(true);
      }),
      { numRuns: 1000 },
    );
  });
});
