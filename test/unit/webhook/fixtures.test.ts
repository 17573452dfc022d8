// mutate and validate over the AdmissionReview fixtures in test/fixtures/webhook: the exact patch (applied with
// fast-json-patch to the input, compared with the expected object), the exact denial, the warnings (for mutate, with
// the validating webhook's on the mutated object, as the apiserver returns both), the uid.
import { expect } from 'chai';
import jsonpatch from 'fast-json-patch';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import {
  DEFAULT_DENY_CIDRS,
  decodePatch,
  decodeReview,
  isRejection,
  mutate,
  validate,
  type AdmissionReview,
  type AdmissionReviewRequest,
  type WebhookOptions,
} from '../../../src/webhook/index.js';
import { validateCluster, type JsonPatchOperation } from '../../../packages/schema/src/schema/index.js';

interface Fixture {
  webhook: 'mutate' | 'validate';
  probeLocation?: 'field' | 'annotation';
  denyHosts?: string[];
  review: unknown;
  expect: {
    allowed: boolean;
    patch?: JsonPatchOperation[];
    object?: unknown;
    status?: unknown;
    warnings?: string[];
  };
}

const dir = path.resolve(import.meta.dirname, '../../fixtures/webhook');
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));

function load(file: string): { fixture: Fixture; review: AdmissionReviewRequest; options: WebhookOptions } {
  const fixture = parse(readFileSync(path.join(dir, file), 'utf8')) as Fixture;
  const review = decodeReview(fixture.review);
  if (isRejection(review)) throw new Error(`${file}: not a review: ${review.message}`);
  return {
    fixture,
    review,
    options: {
      probeLocation: fixture.probeLocation ?? 'field',
      denyHosts: fixture.denyHosts ?? [...DEFAULT_DENY_CIDRS],
    },
  };
}

function run(fixture: Fixture, review: AdmissionReviewRequest, options: WebhookOptions): AdmissionReview {
  return fixture.webhook === 'mutate' ? mutate(review, options) : validate(review, options);
}

describe('admission fixtures', () => {
  it('has at least 40 fixtures, of both webhooks and both probe locations', () => {
    const all = files.map((f) => load(f).fixture);
    expect(all.length).to.be.at.least(40);
    expect(all.filter((f) => f.webhook === 'mutate').length).to.be.at.least(15);
    expect(all.filter((f) => f.webhook === 'validate').length).to.be.at.least(15);
    expect(all.filter((f) => f.probeLocation === 'annotation').length).to.be.at.least(5);
  });

  for (const file of files) {
    describe(file.replace(/\.yaml$/, ''), () => {
      const { fixture, review, options } = load(file);
      const before = structuredClone(fixture.review);
      const answer = run(fixture, review, options);
      const response = answer.response;

      it("answers in the review's apiVersion with its uid", () => {
        expect(answer.apiVersion).to.equal(review.apiVersion);
        expect(answer.kind).to.equal('AdmissionReview');
        expect(response?.uid).to.equal(review.request.uid);
        expect(fixture.review, 'the handler must not mutate its input').to.deep.equal(before);
      });

      it(fixture.expect.allowed ? 'allows' : 'denies with the exact status', () => {
        expect(response?.allowed).to.equal(fixture.expect.allowed);
        if (fixture.expect.status === undefined) expect(response).to.not.have.property('status');
        else expect(response?.status).to.deep.equal(fixture.expect.status);
      });

      // What kubectl prints: the apiserver sends a write through both webhooks, which the manifests always install
      // together, and returns the warnings of each, the mutating webhook's first. The mutating webhook warns only of
      // what it moved; warnings about the object itself are the validating webhook's (as with controller-runtime,
      // whose Defaulter returns none and whose Validator returns them), given the object as mutated.
      it('gives exactly the expected warnings, each at most 120 characters', () => {
        const shown = [...(response?.warnings ?? [])];
        if (fixture.webhook === 'mutate' && response?.allowed) {
          const object = response.patch
            ? jsonpatch.applyPatch(
                structuredClone(review.request.object),
                decodePatch(response.patch) as jsonpatch.Operation[],
                true,
              ).newDocument
            : review.request.object;
          const validated = validate({ ...review, request: { ...review.request, object } }, options);
          for (const w of validated.response?.warnings ?? []) if (!shown.includes(w)) shown.push(w);
        }
        expect(shown).to.deep.equal(fixture.expect.warnings ?? []);
        for (const w of shown) expect(w.length).to.be.at.most(120);
      });

      if (fixture.webhook === 'mutate') {
        it(fixture.expect.patch ? 'patches to exactly the expected object' : 'sends no patch', () => {
          if (fixture.expect.patch === undefined) {
            expect(response).to.not.have.property('patch');
            expect(response).to.not.have.property('patchType');
            return;
          }
          expect(response?.patchType).to.equal('JSONPatch');
          const patch = decodePatch(response?.patch ?? '');
          expect(patch).to.deep.equal(fixture.expect.patch);
          const patched = jsonpatch.applyPatch(
            structuredClone(review.request.object),
            patch as jsonpatch.Operation[],
            true,
          ).newDocument;
          expect(patched).to.deep.equal(fixture.expect.object);
        });

        if (fixture.expect.patch) {
          it('is idempotent: the patched object gets no second patch, and validates', () => {
            const again = mutate({ ...review, request: { ...review.request, object: fixture.expect.object } }, options);
            expect(again.response?.allowed).to.equal(true);
            expect(again.response).to.not.have.property('patch');
            const result = validateCluster(fixture.expect.object, options);
            expect(result.errors).to.deep.equal([]);
          });
        }
      }
    });
  }
});
