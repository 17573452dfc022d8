// jsonEqual, the schema library's portable deep equality, gives node:util's isDeepStrictEqual verdict on the data it
// compares: JSON values (from JSON.parse and YAML), including -0, NaN, holes and an own "__proto__" key.
import { expect } from 'chai';
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { jsonEqual } from '../../../packages/schema/src/schema/json-equal.js';
import { cloneJson } from '../../../packages/schema/src/schema/clone.js';

describe('jsonEqual', () => {
  it('agrees with isDeepStrictEqual on pairs of JSON values and on a value and its edited copy', () => {
    const value = fc.jsonValue({ maxDepth: 4 });
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(jsonEqual(a, b)).to.equal(isDeepStrictEqual(a, b));
        expect(jsonEqual(a, cloneJson(a))).to.equal(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees on the edge cases', () => {
    const holey = [1, 2, 3];
    delete holey[1];
    const cases: [unknown, unknown][] = [
      [0, -0],
      [NaN, NaN],
      [holey, [1, undefined, 3]],
      [[], {}],
      [{ a: undefined }, {}],
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      [JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":1}}')],
      [JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":2}}')],
      [JSON.parse('{"__proto__":{"x":1}}'), { x: 1 }],
      [Object.create(null), {}],
      [new Date(5), new Date(5)],
      [new Date(5), new Date(6)],
      [{ a: [1, { b: null }] }, { a: [1, { b: null }] }],
      ['1', 1],
      [null, undefined],
    ];
    for (const [i, [a, b]] of cases.entries()) expect(jsonEqual(a, b), `case ${i}`).to.equal(isDeepStrictEqual(a, b));
  });
});
