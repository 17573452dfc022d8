// go-url.ts against Go's own net/url: each case of go-url-cases.json was produced by Go (the program is described in
// the file), so the request-target, the redirect host and the messages are Go's, not a memory of them.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import {
  fromText,
  goHostname,
  goProbeRequestUrl,
  goUrlString,
  parseGoUrl,
  parseReference,
  probeRequestUrl,
  requestUri,
  toText,
} from '../../../packages/probe/src/go-url.js';

interface Case {
  err?: string;
  string?: string;
  target?: string;
  hostname?: string;
  host?: string;
}
const cases = JSON.parse(readFileSync(new URL('./go-url-cases.json', import.meta.url), 'utf8')) as {
  paths: (Case & { path: string })[];
  locations: (Case & { base: string; location?: string })[];
};

describe("Go's net/url as the kubelet's probe request uses it", () => {
  for (const c of cases.paths) {
    it(`sends path ${JSON.stringify(c.path)} as Go does: ${c.target ?? c.err ?? ''}`, () => {
      const u = probeRequestUrl('http', '127.0.0.1', 8080, c.path);
      expect(toText(requestUri(u))).to.equal(c.target);
      expect(toText(goUrlString(u))).to.equal(c.string);
    });
  }
  for (const c of cases.locations) {
    const loc = c.location ?? '';
    it(`resolves Location ${JSON.stringify(loc)} as Go does: ${c.err ?? c.string ?? ''}`, () => {
      const base = parseGoUrl(fromText(c.base));
      if (c.err !== undefined) {
        expect(() => parseReference(base, fromText(loc))).to.throw(c.err);
        return;
      }
      const u = parseReference(base, fromText(loc));
      expect(toText(goUrlString(u))).to.equal(c.string);
      expect(toText(requestUri(u))).to.equal(c.target);
      expect(toText(goHostname(u))).to.equal(c.hostname ?? '');
      expect(toText(u.host)).to.equal(c.host ?? '');
    });
  }

  it('builds the usual probe URL directly exactly as the long way does (2,000 random plain paths and hosts)', () => {
    const alphabet = "abcXYZ019-._~!$&'()*+,;=:@/";
    let seed = 29;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      let path = '/';
      for (let k = rnd(12); k > 0; k--) path += alphabet[rnd(alphabet.length)]!;
      const host = ['127.0.0.1', 'member.example', 'LOCALHOST', '10.0.0.1'][rnd(4)]!;
      const fast = probeRequestUrl('http', host, 8080, path);
      const slow = goProbeRequestUrl('http', host, 8080, path);
      expect([goUrlString(fast), requestUri(fast), goHostname(fast)], path).to.deep.equal([
        goUrlString(slow),
        requestUri(slow),
        goHostname(slow),
      ]);
    }
  });
});
