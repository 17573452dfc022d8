// bench/probe/flame.ts reads a V8 CPU profile: busy time by part and a flame graph whose boxes add up to their
// callers, idle time left out (issue 50 names where a probe's CPU goes with it).
import { expect } from 'chai';
import { callTree, flameSvg, partOf } from '../../../bench/probe/flame.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/** root -> (idle), (garbage collector), onTimer (scheduler) -> connect (node:net); samples in microseconds. */
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 3, 4] },
    { id: 2, callFrame: frame('(idle)') },
    { id: 3, callFrame: frame('(garbage collector)') },
    { id: 4, callFrame: frame('onTimer', 'file:///x/packages/probe/dist/scheduler.js', 10), children: [5] },
    { id: 5, callFrame: frame('internalConnect', 'node:net', 1037) },
  ],
  samples: [2, 2, 2, 3, 4, 5, 5, 5],
  timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
};

describe('bench/probe/flame.ts', () => {
  it('adds busy time by part and leaves idle out', () => {
    const { root, parts, idle } = callTree(profile);
    expect(idle).to.equal(3000);
    expect(root.total).to.equal(5000);
    expect(Object.fromEntries(parts)).to.deep.equal({
      '(garbage collector)': 1000,
      'engine: scheduling (scheduler.js)': 1000,
      'Node: net': 3000,
    });
    const timer = root.children.get('onTimer scheduler.js:11')!;
    expect(timer.total, 'a caller holds its callees').to.equal(4000);
    expect(timer.self).to.equal(1000);
  });

  it('names the parts docs/probe.md uses', () => {
    expect(partOf(frame('feed', 'file:///r/packages/probe/dist/go-response-head.js'))).to.equal(
      'engine: HTTP/1 client (go-response-head.js)',
    );
    expect(partOf(frame('listOnTimeout', 'node:internal/timers'))).to.equal('Node: timers');
    expect(partOf(frame('TLSSocket', 'node:_tls_wrap'))).to.equal('Node: TLS');
    expect(partOf(frame('pino', 'file:///r/node_modules/pino/pino.js'))).to.equal('dependency: pino');
  });

  it('draws one box a call path, as wide as its share, with the numbers in its title', () => {
    const svg = flameSvg(callTree(profile).root, 'a <test>');
    expect(svg).to.match(/^<svg /);
    expect(svg).to.include('a &lt;test&gt;');
    expect(svg).to.include('<title>internalConnect node:net:1038 (Node: net): 60.0% inclusive, 60.0% self</title>');
    expect(svg.match(/<rect /g)).to.have.length(4);
  });
});
