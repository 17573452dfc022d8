// definedFields: the options helper that replaced the conditional spreads (docs/architecture.md, "Errors" and below).
import { expect } from 'chai';
import { definedFields } from '../../../packages/schema/src/api/index.js';

describe('definedFields', () => {
  it('keeps the defined keys and drops the undefined ones, so a spread over defaults keeps the defaults', () => {
    const given = { a: 1, b: undefined, c: null, d: false, e: '' };
    const kept = definedFields(given);
    expect(kept).to.deep.equal({ a: 1, c: null, d: false, e: '' });
    expect('b' in kept).to.equal(false);
    expect({ a: 0, b: 2, ...kept }).to.deep.equal({ a: 1, b: 2, c: null, d: false, e: '' });
    expect(given).to.have.property('b'); // a new object: what it was given is not changed
  });
});
