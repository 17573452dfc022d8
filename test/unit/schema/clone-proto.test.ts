// cloneJson on hostile keys: JSON.parse makes `"__proto__"` an own property, and the copy must keep it as one (an
// assignment would set the copy's prototype instead, so the key would vanish from the object and from any diff).
import { expect } from 'chai';
import { cloneJson } from '../../../packages/schema/src/schema/clone.js';

describe('cloneJson with a "__proto__" key', () => {
  for (const text of [
    '{"spec":{"__proto__":[]}}',
    '{"__proto__":{"polluted":true},"a":1}',
    '{"metadata":{"annotations":{"__proto__":"x"}}}',
  ]) {
    it(`copies ${text} as it was parsed`, () => {
      const parsed = JSON.parse(text) as unknown;
      const copy = cloneJson(parsed);
      expect(JSON.stringify(copy)).to.equal(JSON.stringify(parsed));
      expect(copy).to.deep.equal(parsed);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  }

  it('gives every copied object the plain Object prototype', () => {
    const copy = cloneJson(JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>);
    expect(Object.getPrototypeOf(copy)).to.equal(Object.prototype);
    expect(Object.keys(copy)).to.deep.equal(['__proto__']);
  });
});
