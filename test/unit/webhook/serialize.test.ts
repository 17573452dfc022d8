// The webhook writes its answers and patches with its own JSON writers (answerJson, patchJson, quoteJson), which skip
// JSON.stringify's cost on the text it knows needs no escaping (docs/webhook.md, issue 14). They must write exactly
// what JSON.stringify writes: here on every fixture's answer and patch, and on generated strings, patches and answers.
import { expect } from 'chai';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { answer, decodeReview, isRejection, mutate, validate } from '../../../src/webhook/index.js';
import { answerJson } from '../../../src/webhook/admission.js';
import { patchJson, quoteJson, encodePatch, decodePatch } from '../../../src/webhook/patch.js';
import { diffSharing, type JsonPatchOperation } from '../../../packages/schema/src/schema/diff.js';
import { DEFAULT_DENY_CIDRS } from '../../../packages/schema/src/address/index.js';

const dir = path.resolve(import.meta.dirname, '../../fixtures/webhook');

describe('the webhook JSON writers', () => {
  it('quoteJson writes any string as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })), (text) => {
        expect(quoteJson(text)).to.equal(JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
    for (const text of ['', '"', '\\', '\u007f', '\u0000', '\ud800', 'a/b~c', 'ü', '\u2028']) {
      expect(quoteJson(text)).to.equal(JSON.stringify(text));
    }
  });

  it('patchJson writes every patch the diff makes as JSON.stringify does, and encodePatch round-trips', () => {
    const key = fc.constantFrom('a', 'b', 'x/y', 't~1', '"q"', 'ü', '\\', '__proto__');
    const value = fc.jsonValue({ maxDepth: 3 });
    const doc = fc.dictionary(key, value, { maxKeys: 5 }).map((v) => JSON.parse(JSON.stringify(v)) as object);
    fc.assert(
      fc.property(doc, doc, (from, to) => {
        const patch = diffSharing(from, to);
        expect(patchJson(patch)).to.equal(JSON.stringify(patch));
        expect(decodePatch(encodePatch(patch))).to.deep.equal(JSON.parse(JSON.stringify(patch)));
      }),
      { numRuns: 1000 },
    );
    const moved: JsonPatchOperation[] = [{ op: 'move', from: '/a', path: '/b' }];
    expect(patchJson(moved)).to.equal(JSON.stringify(moved));
  });

  it('answerJson writes every fixture answer as JSON.stringify does', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml'));
    expect(files.length).to.be.at.least(40);
    let patched = 0;
    for (const file of files) {
      const fixture = parse(readFileSync(path.join(dir, file), 'utf8')) as {
        webhook: 'mutate' | 'validate';
        probeLocation?: 'field' | 'annotation';
        denyHosts?: string[];
        review: unknown;
      };
      const review = decodeReview(fixture.review);
      if (isRejection(review)) throw new Error(`${file}: ${review.message}`);
      const options = {
        probeLocation: fixture.probeLocation ?? ('field' as const),
        denyHosts: fixture.denyHosts ?? [...DEFAULT_DENY_CIDRS],
      };
      for (const run of [mutate, validate]) {
        const result = run(review, options);
        if (result.response?.patch !== undefined) patched++;
        expect(answerJson(result), file).to.equal(JSON.stringify(result));
      }
    }
    expect(patched).to.be.at.least(10);
  });

  it('answerJson writes generated answers as JSON.stringify does', () => {
    const status = fc.record(
      { code: fc.integer(), reason: fc.string(), message: fc.string({ unit: 'binary' }) },
      { requiredKeys: ['code', 'message'] },
    );
    const response = fc.record(
      {
        allowed: fc.boolean(),
        patchType: fc.constant('JSONPatch' as const),
        patch: fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b).toString('base64')),
        warnings: fc.array(fc.string({ unit: 'binary' })),
        status,
      },
      { requiredKeys: ['allowed'] },
    );
    const uid = fc.oneof(fc.uuid(), fc.string({ unit: 'binary', minLength: 1 }));
    const apiVersion = fc.constantFrom('admission.k8s.io/v1' as const, 'admission.k8s.io/v1beta1' as const);
    fc.assert(
      fc.property(uid, apiVersion, response, (id, version, body) => {
        const review = { apiVersion: version, kind: 'AdmissionReview' as const, request: { uid: id } };
        const made = answer(review, body);
        expect(answerJson(made)).to.equal(JSON.stringify(made));
        // Anything but an answer as `answer` makes it goes to JSON.stringify whole.
        const other = { kind: made.kind, apiVersion: made.apiVersion, response: made.response };
        expect(answerJson(other)).to.equal(JSON.stringify(other));
      }),
      { numRuns: 1000 },
    );
  });
});
