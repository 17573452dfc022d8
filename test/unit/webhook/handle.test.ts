// The HTTP-free admission pipeline: what a body that is not a review gets (400/413/415 with a Status), and the
// small rules around answers (uid echo, warning length, non-Cluster kinds).
import { expect } from 'chai';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  MAX_BODY_BYTES,
  handleReview,
  shapeWarnings,
  truncateWarning,
} from '../../../src/webhook/index.js';
import { parseCidrFlag as parseCidr } from '../../../src/cli/cidr-option.js';

const json = 'application/json';
const clusterReview = (request: Record<string, unknown>) =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
      operation: 'CREATE',
      ...request,
    },
  });

describe('admission pipeline', () => {
  it('answers a body that is not JSON with 400 and a JSON Status', () => {
    const out = handleReview('mutate', json, '{"apiVersion": ', DEFAULT_WEBHOOK_OPTIONS);
    expect(out.code).to.equal(400);
    expect(out.body).to.deep.include({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(String(out.rejection?.message)).to.match(/^body is not JSON: /);
  });

  it('answers a wrong Content-Type with 415', () => {
    for (const type of ['text/plain', 'application/yaml', undefined, 'application/jsonx']) {
      const out = handleReview('validate', type, clusterReview({ uid: 'a' }), DEFAULT_WEBHOOK_OPTIONS);
      expect(out.code, String(type)).to.equal(415);
    }
    expect(
      handleReview('validate', 'Application/JSON; charset=utf-8', clusterReview({ uid: 'a' }), DEFAULT_WEBHOOK_OPTIONS)
        .code,
    ).to.equal(200);
  });

  it('answers a body over 3 MiB with 413', () => {
    const out = handleReview('validate', json, Buffer.alloc(MAX_BODY_BYTES + 1, 0x20), DEFAULT_WEBHOOK_OPTIONS);
    expect(out.code).to.equal(413);
    expect(out.body).to.deep.include({ reason: 'RequestEntityTooLarge', code: 413 });
  });

  it('answers a review without request.uid with 400 naming the uid', () => {
    for (const body of [
      clusterReview({}),
      clusterReview({ uid: '' }),
      clusterReview({ uid: 42 }),
      '{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}',
    ]) {
      const out = handleReview('mutate', json, body, DEFAULT_WEBHOOK_OPTIONS);
      expect(out.code).to.equal(400);
    }
    expect(handleReview('mutate', json, clusterReview({}), DEFAULT_WEBHOOK_OPTIONS).rejection?.message).to.equal(
      'AdmissionReview request.uid is required',
    );
  });

  it('answers another kind or apiVersion of body with 400', () => {
    const wrongKind = handleReview('mutate', json, '{"apiVersion":"v1","kind":"Pod"}', DEFAULT_WEBHOOK_OPTIONS);
    expect(wrongKind.code).to.equal(400);
    expect(wrongKind.rejection?.message).to.equal('kind must be "AdmissionReview", got "Pod"');
    const wrongVersion = handleReview(
      'mutate',
      json,
      '{"apiVersion":"admission.k8s.io/v2","kind":"AdmissionReview","request":{"uid":"x"}}',
      DEFAULT_WEBHOOK_OPTIONS,
    );
    expect(wrongVersion.code).to.equal(400);
    for (const body of ['null', '[]', '"review"', '7']) {
      expect(handleReview('validate', json, body, DEFAULT_WEBHOOK_OPTIONS).code).to.equal(400);
    }
  });

  it('denies a Cluster CREATE that carries no object, echoing the uid', () => {
    const out = handleReview('validate', json, clusterReview({ uid: 'no-object' }), DEFAULT_WEBHOOK_OPTIONS);
    expect(out.code).to.equal(200);
    expect(out.answer?.response).to.deep.equal({
      uid: 'no-object',
      allowed: false,
      status: { code: 400, reason: 'BadRequest', message: 'CREATE of a Cluster without request.object' },
    });
  });

  it('answers a handler that throws with the fallback instead of crashing', () => {
    // JSON cannot make the schema library throw (it never does); options whose getter throws stand in for a bug.
    const body = clusterReview({
      uid: 'boom',
      object: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'x' }, spec: {} },
    });
    const validated = handleReview('validate', json, body, {
      probeLocation: 'field',
      get denyHosts(): string[] {
        throw new Error('deny list unavailable');
      },
    });
    expect(validated.code).to.equal(200);
    expect(validated.error).to.be.instanceOf(Error);
    expect(validated.answer?.response).to.deep.equal({
      uid: 'boom',
      allowed: false,
      status: { code: 400, reason: 'BadRequest', message: 'Cluster "x" could not be validated: deny list unavailable' },
    });
  });

  it('keeps warnings to 120 characters on one line, without duplicates', () => {
    const long = `x${'y'.repeat(200)}`;
    expect(truncateWarning(long)).to.have.length(120);
    expect(truncateWarning(long).endsWith('...')).to.equal(true);
    expect(truncateWarning('a\n  b')).to.equal('a b');
    expect(shapeWarnings(['same', 'same', 'other'])).to.deep.equal(['same', 'other']);
  });

  it('parses --deny-cidr values and refuses typos', () => {
    expect(parseCidr('169.254.0.0/16')).to.equal('169.254.0.0/16');
    expect(parseCidr('100.100.100.200')).to.equal('100.100.100.200/32');
    expect(parseCidr('fe80::/10')).to.equal('fe80::/10');
    expect(() => parseCidr('169.254.0.0/33')).to.throw('prefix length must be between 0 and 32, inclusive');
    expect(() => parseCidr('metadata.google.internal')).to.throw('not an address range');
  });
});
