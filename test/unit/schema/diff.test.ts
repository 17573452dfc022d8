// The schema library's RFC 6902 diff against fast-json-patch's `compare`, which it replaced on the webhook's hot path
// (packages/schema/src/schema/diff.ts): the same operations in the same order on generated documents, including keys that need
// escaping, "__proto__" as an own key, arrays against objects and removed array items; and the copying contract of
// each of the two functions.
import { expect } from 'chai';
import fc from 'fast-check';
import jsonpatch from 'fast-json-patch';
import {
  diffPatch,
  diffSharing,
  escapePointerToken,
  unescapePointerToken,
} from '../../../packages/schema/src/schema/diff.js';

const key = fc.constantFrom('a', 'b', 'c', 'x/y', 't~1', '~', '0', '1', '__proto__', '');
const leaf = fc.oneof(
  fc.constantFrom(null, true, false, 0, 1, '', 'a', 'b'),
  fc.integer(),
  fc.string({ maxLength: 4 }),
);
const { doc, container } = fc.letrec((tie) => ({
  doc: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('obj'), tie('arr')),
  container: fc.oneof(tie('obj'), tie('arr')),
  obj: fc.dictionary(key, tie('doc'), { maxKeys: 5 }),
  arr: fc.array(tie('doc'), { maxLength: 4 }),
}));
/** As the webhook holds documents: parsed from JSON text (so "__proto__" is an own key). */
const parsed = container.map((v) => JSON.parse(JSON.stringify(v)) as object);
/** A second document that shares most of the first: a random mix of its keys and fresh ones. */
const pair = fc.oneof(
  fc.tuple(parsed, parsed),
  parsed.chain((a) =>
    fc
      .tuple(fc.constant(a), fc.array(fc.tuple(key, fc.oneof(doc, fc.constant(undefined))), { maxLength: 4 }))
      .map(([from, edits]) => {
        const to = JSON.parse(JSON.stringify(from)) as Record<string, unknown>;
        for (const [k, v] of edits) {
          if (Array.isArray(to)) {
            if (v === undefined) to.pop();
            else to.push(v);
          } else if (v === undefined) delete to[k];
          else Object.defineProperty(to, k, { value: v, enumerable: true, writable: true, configurable: true });
        }
        return [from, JSON.parse(JSON.stringify(to)) as object] as const;
      }),
  ),
);

describe('diffSharing and diffPatch (packages/schema/src/schema/diff.ts)', () => {
  it("give fast-json-patch compare's operations, in its order", () => {
    fc.assert(
      fc.property(pair, ([from, to]) => {
        const expected = jsonpatch.compare(from, to);
        expect(diffSharing(from, to)).to.deep.equal(expected);
        expect(diffPatch(from, to)).to.deep.equal(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it('turn the first document into the second (when both are objects or both arrays)', () => {
    // compare gives no operation for [] against {} (nothing to walk on either side): a top of the other kind is
    // outside what a Cluster can be, and both diffs agree on it (above).
    fc.assert(
      fc.property(pair, ([from, to]) => {
        fc.pre(Array.isArray(from) === Array.isArray(to));
        // fast-json-patch's applier refuses "__proto__" on purpose; the first property covers that key.
        fc.pre(!JSON.stringify([from, to]).includes('"__proto__"'));
        const patch = diffPatch(from, to);
        const applied = jsonpatch.applyPatch(jsonpatch.deepClone(from), patch as jsonpatch.Operation[], true, false);
        expect(applied.newDocument).to.deep.equal(to);
      }),
      { numRuns: 1000 },
    );
  });

  it('escape keys as RFC 6901 reference tokens', () => {
    expect(escapePointerToken('cluster.karmada.io/health-checker')).to.equal('cluster.karmada.io~1health-checker');
    expect(escapePointerToken('a~/b')).to.equal('a~0~1b');
    expect(escapePointerToken('plain')).to.equal('plain');
    expect(diffSharing({}, { 'a/b': { '~': 1 } })).to.deep.equal([{ op: 'add', path: '/a~1b', value: { '~': 1 } }]);
  });

  it('unescapes every escaped token back to its key (the one unescaping the schema library and the CLI use)', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('~', '/', '0', '1', 'a') }), (key) => {
        expect(unescapePointerToken(escapePointerToken(key))).to.equal(key);
      }),
      { numRuns: 2000 },
    );
    expect(unescapePointerToken('~01')).to.equal('~1');
    expect(unescapePointerToken('a~1b~0c')).to.equal('a/b~c');
  });

  it("diffSharing hands out the new document's values; diffPatch copies them", () => {
    const to = { spec: { livenessProbe: { httpGet: { port: 443 } } } };
    const shared = diffSharing({ spec: {} }, to);
    const copied = diffPatch({ spec: {} }, to);
    expect(shared[0]?.value).to.equal(to.spec.livenessProbe);
    expect(copied[0]?.value).to.deep.equal(to.spec.livenessProbe);
    expect(copied[0]?.value).to.not.equal(to.spec.livenessProbe);
    to.spec.livenessProbe.httpGet.port = 1;
    expect(copied[0]?.value).to.deep.equal({ httpGet: { port: 443 } });
  });

  it('gives no operation for equal documents, and one remove per removed array item, last first', () => {
    expect(diffSharing({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).to.deep.equal([]);
    expect(diffSharing([1, 2, 3], [1])).to.deep.equal([
      { op: 'remove', path: '/2' },
      { op: 'remove', path: '/1' },
    ]);
  });
});
