// The streaming list scanner behind the apiServer probe: whatever the chunking (down to one byte at a time), it finds
// the same items and continue token as JSON.parse of the whole body, refuses what is not JSON, and enforces the read
// budget's bounds on items per page and bytes per object before decoding more.
import { expect } from 'chai';
import fc from 'fast-check';
import { ListScanner, NotJsonError } from '../../../packages/probe/src/list-scanner.js';
import { ReadBudgetExceeded } from '../../../packages/probe/src/read-budget.js';

const BUDGET = { itemsPerPage: 500, maxObjectBytes: 64 * 1024 };

function scan(body: Buffer, cuts: number[], budget = BUDGET, stopAt = Infinity) {
  const items: unknown[] = [];
  const scanner = new ListScanner(budget, (item) => {
    items.push(item);
    return items.length >= stopAt;
  });
  let from = 0;
  let stopped = false;
  for (const at of [...cuts.filter((c) => c > 0 && c < body.length).sort((a, b) => a - b), body.length]) {
    if (at <= from) continue;
    if (scanner.write(body.subarray(from, at))) {
      stopped = true;
      break;
    }
    from = at;
  }
  return { items, stopped, result: scanner.end() };
}

/** JSON text with the odd spacing, escapes and nesting a member may send. */
const value = fc.jsonValue({ maxDepth: 3 });
const listDoc = fc
  .record(
    {
      kind: fc.constantFrom('NodeList', 'PodList'),
      apiVersion: fc.constant('v1'),
      metadata: fc.record(
        { resourceVersion: fc.string(), continue: fc.oneof(fc.constant(''), fc.string({ minLength: 1 })) },
        { requiredKeys: [] },
      ),
      items: fc.array(value, { maxLength: 20 }),
      extra: value,
    },
    { requiredKeys: ['items'] },
  )
  .chain((doc) =>
    fc.tuple(fc.constant(doc), fc.constantFrom(0, 1, 2, '\t', ' \n')).map(([d, indent]) => ({
      doc: d,
      text: JSON.stringify(d, null, indent),
    })),
  );

describe('list scanner', () => {
  it('finds the items and the continue token JSON.parse finds, however the bytes are cut', () => {
    fc.assert(
      fc.property(listDoc, fc.array(fc.nat(4000), { maxLength: 30 }), ({ doc, text }, cuts) => {
        const body = Buffer.from(text);
        const { items, result } = scan(body, cuts);
        expect(items).to.deep.equal(JSON.parse(JSON.stringify(doc.items)));
        expect(result.sawItems).to.equal(true);
        expect(result.items).to.equal(doc.items.length);
        const cont = doc.metadata?.continue;
        expect(result.continueToken).to.equal(cont === undefined || cont === '' ? undefined : cont);
      }),
      { numRuns: 300 },
    );
  });

  it('decodes UTF-8 cut inside a character, and items of falling sizes that span chunks, as JSON.parse does', () => {
    // A large item, then smaller ones: the buffer a spanning item is put together in is reused, never read past it.
    const items = [
      { name: 'é'.repeat(5000), n: 1 },
      { name: '日本語'.repeat(300), emoji: '🙂'.repeat(100) },
      { name: 'ß', n: 3 },
      'ü',
    ];
    const body = Buffer.from(JSON.stringify({ kind: 'NodeList', metadata: { continue: 'ñ' }, items }));
    for (const step of [1, 3, 7, 1000]) {
      const cuts = Array.from({ length: Math.ceil(body.length / step) }, (_, i) => i * step);
      const r = scan(body, cuts);
      expect(r.items, `cut every ${step} bytes`).to.deep.equal(items);
      expect(r.result.continueToken).to.equal('ñ');
    }
  });

  it('reads a body that arrives one byte at a time', () => {
    const text = '{"kind":"NodeList","metadata":{"continue":"x\\"y"},"items":[{"a":"}]"},1,"s",true,null,[2]]}';
    const { items, result } = scan(
      Buffer.from(text),
      Array.from({ length: text.length }, (_, i) => i),
    );
    expect(items).to.deep.equal([{ a: '}]' }, 1, 's', true, null, [2]]);
    expect(result.continueToken).to.equal('x"y');
  });

  it('finds the items key spelt with escapes, and stops where it is told to', () => {
    const r = scan(Buffer.from('{"\\u0069tems":[1,2,3,4]}'), [], BUDGET, 2);
    expect(r.items).to.deep.equal([1, 2]);
    expect(r.stopped).to.equal(true);
  });

  it('says when there are no items', () => {
    expect(scan(Buffer.from('{"items":null}'), []).result.sawItems).to.equal(false);
    expect(scan(Buffer.from('{}'), []).result.sawItems).to.equal(false);
  });

  it('refuses what is not one JSON object', () => {
    for (const bad of [
      '',
      '[]',
      'null',
      '{"items":[1,]}',
      '{"items":[1 2]}',
      '{"items":[01]}',
      '{"items":[nope]}',
      '{"a":1,}',
      '{"a" 1}',
      '{"items":[1]',
      '{"items":[1]}x',
      '{"items":[{"a":1]}',
      '{"items":["unterminated]}',
    ])
      expect(() => scan(Buffer.from(bad), []), bad).to.throw(NotJsonError);
  });

  it('refuses the item past the page limit before decoding it', () => {
    const body = Buffer.from(`{"items":[${Array.from({ length: 6 }, () => '{}').join(',')}]}`);
    expect(() => scan(body, [], { itemsPerPage: 5, maxObjectBytes: 1024 }))
      .to.throw(ReadBudgetExceeded, 'more than 5 items in one page (limit=5); read budget itemsPerPage exceeded')
      .with.property('bound', 'itemsPerPage');
  });

  it('refuses an object, or any other value, larger than the object budget', () => {
    const big = `{"items":[{"a":"${'x'.repeat(2000)}"}]}`;
    expect(() => scan(Buffer.from(big), [100, 900], { itemsPerPage: 5, maxObjectBytes: 1024 })).to.throw(
      ReadBudgetExceeded,
      'an object is larger than 1024 bytes; read budget maxObjectBytes exceeded',
    );
    const meta = `{"metadata":{"continue":"${'x'.repeat(2000)}"},"items":[]}`;
    expect(() => scan(Buffer.from(meta), [], { itemsPerPage: 5, maxObjectBytes: 1024 })).to.throw(
      ReadBudgetExceeded,
      'the value of "metadata" is larger than 1024 bytes',
    );
  });
});
