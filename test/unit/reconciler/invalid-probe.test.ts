// How an invalid probe is told in the Healthy condition and the Event: every field error in the apiserver's words,
// bounded in length, and never a secret (header values, caBundles, URLs) or a huge string that a user pasted.
import { expect } from 'chai';
import { invalidProbeMessage } from '../../../src/reconciler/index.js';
import { validateCluster, type FieldError, type LivenessProbe } from '../../../packages/schema/src/schema/index.js';
import { aCluster } from '../../support/cluster.js';

/** `probe`: what a user wrote, valid or not. */
const errorsOf = (probe: unknown): FieldError[] =>
  validateCluster(aCluster('m1', { apiEndpoint: 'https://10.0.0.1:6443', probe: probe as LivenessProbe })).errors;

describe('reconciler invalid probe message', () => {
  it('lists every field error in the apiserver wording', () => {
    const msg = invalidProbeMessage(errorsOf({ httpGet: { port: 70000, path: 'healthz' } }));
    expect(msg).to.equal(
      'spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with \'/\'; spec.livenessProbe.httpGet.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    );
  });

  it('never echoes a huge string and stays within 1024 characters', () => {
    const msg = invalidProbeMessage(errorsOf({ httpGet: { port: 80, host: 'a'.repeat(5000) } }));
    expect(msg.length).to.be.at.most(1024);
    expect(msg).not.to.match(/a{65}/);
    expect(msg).to.include('spec.livenessProbe.httpGet.host: Too long: may not be more than 253 bytes');
    expect(msg).to.include('spec.livenessProbe.httpGet.host: Invalid value:');
  });

  it('never echoes a header value, a caBundle or a URL, even short ones', () => {
    const errors: FieldError[] = [
      {
        field: 'spec.livenessProbe.httpGet.httpHeaders[0].value',
        type: 'FieldValueInvalid',
        value: 'Bearer s3cr3t',
        detail: 'bad',
        message: 'spec.livenessProbe.httpGet.httpHeaders[0].value: Invalid value: "Bearer s3cr3t": bad',
      },
      {
        field: 'metadata.annotations[cluster.karmada.io/health-checker].url',
        type: 'FieldValueInvalid',
        value: 'https://u:pw@x/',
        detail: 'must be an absolute URL',
        message: 'metadata.annotations[cluster.karmada.io/health-checker].url: Invalid value: "https://u:pw@x/": ...',
      },
      {
        field: 'spec.livenessProbe.httpGet.caBundle',
        type: 'FieldValueInvalid',
        value: 'LS0tLS1CRUdJTg==',
        detail: 'must be base64-encoded PEM',
        message: 'x',
      },
    ];
    const msg = invalidProbeMessage(errors);
    expect(msg).not.to.include('s3cr3t');
    expect(msg).not.to.include('pw@');
    expect(msg).not.to.include('LS0t');
    expect(msg).to.include('spec.livenessProbe.httpGet.httpHeaders[0].value: Invalid value: bad');
  });

  it('says how many errors it left out when they do not fit', () => {
    const many: FieldError[] = Array.from({ length: 40 }, (_, i) => ({
      field: `spec.livenessProbe.httpGet.httpHeaders[${i}].name`,
      type: 'FieldValueInvalid' as const,
      value: 'bad name',
      detail: "a valid HTTP header must consist of alphanumeric characters or '-'",
      message: '',
    }));
    const msg = invalidProbeMessage(many);
    expect(msg.length).to.be.at.most(1024);
    expect(msg).to.match(/; and \d+ more errors$/);
    expect(msg).to.include('httpHeaders[0].name: Invalid value: "bad name"');
  });

  it('bounds a pathological field path and detail too', () => {
    const msg = invalidProbeMessage([
      {
        field: `spec.livenessProbe.${'k'.repeat(3000)}`,
        type: 'FieldValueForbidden',
        detail: `unknown field "${'k'.repeat(3000)}"; check its spelling`,
        message: '',
      },
    ]);
    expect(msg.length).to.be.at.most(400);
    expect(msg).not.to.match(/k{200}/);
  });
});
