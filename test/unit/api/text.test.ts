// trimTrailingSlashes gives what `replace(/\/+$/, '')` gave, without its quadratic retries on a long run of slashes
// followed by another character (100,000 slashes: 7.7 s with the pattern).
import { expect } from 'chai';
import fc from 'fast-check';
import { trimTrailingSlashes } from '../../../packages/schema/src/api/index.js';

describe('trimTrailingSlashes', () => {
  it('trims as the pattern did', () => {
    for (const s of ['', '/', '//', 'a//', '/a//b//', '\\/', 'a/\n'])
      expect(trimTrailingSlashes(s), s).to.equal(s.replace(/\/+$/, ''));
    fc.assert(
      fc.property(fc.array(fc.constantFrom('/', 'a', '\n', '.')), (parts) => {
        const s = parts.join('');
        expect(trimTrailingSlashes(s)).to.equal(s.replace(/\/+$/, ''));
      }),
    );
  });

  it('keeps a long run of slashes that does not end the text', () => {
    const s = `${'/'.repeat(300_000)}x`;
    expect(trimTrailingSlashes(s)).to.equal(s);
  });
});
