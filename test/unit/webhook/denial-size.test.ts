// A denial is bounded in bytes whatever the review: at most MAX_DENIAL_ERRORS field errors (the rest counted in the
// message), each error's text and field at most MAX_DENIAL_ERROR_LENGTH characters. Before, a 1 MB review of 100,000
// unknown probe fields was answered with 22 MB, and a client that did not read held that in the server.
import { expect } from 'chai';
import {
  DEFAULT_WEBHOOK_OPTIONS,
  MAX_BODY_BYTES,
  MAX_DENIAL_ERRORS,
  MAX_DENIAL_ERROR_LENGTH,
  handleReview,
} from '../../../src/webhook/index.js';

interface Denial {
  response: {
    allowed: boolean;
    status: { code: number; message: string; details: { causes: { field: string; message: string }[] } };
  };
}

const review = (livenessProbe: Record<string, unknown>, name = 'member-x') =>
  JSON.stringify({
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: 'u-1',
      kind: { group: 'cluster.karmada.io', version: 'v1alpha1', kind: 'Cluster' },
      operation: 'CREATE',
      name,
      object: {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name },
        spec: { syncMode: 'Push', apiEndpoint: 'https://10.0.0.1:6443', livenessProbe },
      },
    },
  });

const deny = (body: string): { denial: Denial; bytes: number } => {
  const out = handleReview('validate', 'application/json', body, DEFAULT_WEBHOOK_OPTIONS);
  const text = JSON.stringify(out.body);
  return { denial: JSON.parse(text) as Denial, bytes: Buffer.byteLength(text) };
};

describe('denial size', () => {
  it('lists every error while there are at most MAX_DENIAL_ERRORS, as before', () => {
    const probe: Record<string, unknown> = { tcpSocket: { port: 80 } };
    for (let i = 0; i < MAX_DENIAL_ERRORS; i++) probe[`k${i}`] = 1;
    const { denial } = deny(review(probe));
    expect(denial.response.status.details.causes).to.have.length(MAX_DENIAL_ERRORS);
    expect(denial.response.status.message).to.match(/, spec\.livenessProbe\.k99: Forbidden: [^\]]*\]$/);
  });

  it('reports the first MAX_DENIAL_ERRORS errors and counts the rest, for a review of 100,000 errors', () => {
    const probe: Record<string, unknown> = { tcpSocket: { port: 80 } };
    for (let i = 0; i < 100_000; i++) probe[`k${i}`] = 1;
    const { denial, bytes } = deny(review(probe));
    const { status } = denial.response;
    expect(denial.response.allowed).to.equal(false);
    expect(status.code).to.equal(422);
    expect(status.details.causes).to.have.length(MAX_DENIAL_ERRORS);
    expect(status.details.causes[0]?.field).to.equal('spec.livenessProbe.k0');
    expect(status.message).to.match(
      new RegExp(
        `^Cluster "member-x" is invalid: \\[spec\\.livenessProbe\\.k0: .*, and ${100_000 - MAX_DENIAL_ERRORS} more errors\\]$`,
      ),
    );
    expect(bytes).to.be.below(64 * 1024);
  });

  it('clips an error whose field or text is longer than MAX_DENIAL_ERROR_LENGTH, never splitting a character', () => {
    const long = '🙂'.repeat(MAX_BODY_BYTES / 16);
    const { denial, bytes } = deny(review({ tcpSocket: { port: 80 }, [long]: 1, [`x${long}`]: 2 }));
    const { message, details } = denial.response.status;
    expect(details.causes).to.have.length(2);
    for (const cause of details.causes) {
      expect(cause.field.length).to.be.at.most(MAX_DENIAL_ERROR_LENGTH);
      expect(cause.message.length).to.be.at.most(MAX_DENIAL_ERROR_LENGTH);
      expect(cause.field).to.match(/\.\.\.$/);
      expect(cause.field + cause.message).not.to.match(/[\ud800-\udbff](?![\udc00-\udfff])/);
    }
    expect(message).not.to.match(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(bytes).to.be.below(16 * 1024);
  });
});
