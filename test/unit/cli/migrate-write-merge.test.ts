// The pieces `migrate --write` keeps a file's own text with: the line diff, the three-way line merge that carries an
// edit of a re-rendering back onto the file, and the style read from the file (JSON, indentation, line endings).
import { expect } from 'chai';
import fc from 'fast-check';
import { parseAllDocuments, stringify } from 'yaml';
import { parseSource } from '../../../src/cli/documents.js';
import { diffLines, mergeEdit, type Hunk } from '../../../src/cli/line-merge.js';
import { migrateSource } from '../../../src/cli/migrate.js';
import { detectStyle, inStyle } from '../../../src/cli/source-style.js';

/** `a` with the hunks applied, taking the replacement lines from `b`. */
function apply(a: readonly string[], b: readonly string[], hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let i = 0;
  for (const h of hunks) {
    out.push(...a.slice(i, h.start), ...b.slice(h.oStart, h.oEnd));
    i = h.end;
  }
  return [...out, ...a.slice(i)];
}

describe('migrate --write: line diff and merge', () => {
  it('finds hunks that turn one list of lines into the other', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'key: 1', '');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (a, b) => {
        const hunks = diffLines(a, b);
        expect(hunks).to.not.equal(undefined);
        expect(apply(a, b, hunks ?? [])).to.deep.equal(b);
        for (const h of hunks ?? []) expect(h.end > h.start || h.oEnd > h.oStart).to.equal(true);
      }),
      { numRuns: 300 },
    );
    expect(diffLines(['x', 'y', 'z'], ['x', 'y', 'z'])).to.deep.equal([]);
    expect(diffLines(['x', 'y', 'z'], ['x', 'Y', 'z'])).to.deep.equal([{ start: 1, end: 2, oStart: 1, oEnd: 2 }]);
  });

  it('gives up past its edit budget rather than spending quadratic time', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    expect(diffLines(a, b, 10)).to.equal(undefined);
    expect(diffLines(a, b)).to.have.length(1);
  });

  it('returns the edited rendering when the file is its own rendering', () => {
    const text = fc.array(fc.constantFrom('a: 1', 'b: 2', '# c', '  d: 3'), { maxLength: 12 });
    fc.assert(
      fc.property(text, text, (before, after) => {
        const b = before.map((l) => `${l}\n`).join('');
        const a = after.map((l) => `${l}\n`).join('');
        expect(mergeEdit(b, b, a, '\n')).to.equal(a);
      }),
      { numRuns: 300 },
    );
  });

  it("keeps the file's own lines and line endings around the edit and ends as the file did", () => {
    const original = 'a: {x: 1}\r\nb: 2\r\nc:   3';
    const before = 'a: { x: 1 }\nb: 2\nc: 3\n';
    const after = 'a: { x: 1 }\nb: 2\nnew: 4\nc: 3\n';
    expect(mergeEdit(original, before, after, '\r\n')).to.equal('a: {x: 1}\r\nb: 2\r\nnew: 4\r\nc:   3');
    expect(mergeEdit('a: 1', 'a: 1\n', 'a: 1\nb: 2\n', '\n')).to.equal('a: 1\nb: 2');
  });

  it('refuses when the edit and the file differ on the same line', () => {
    expect(mergeEdit('a:   1\n', 'a: 1\n', 'a: 2\n', '\n')).to.equal(undefined);
    expect(mergeEdit('x\ninserted\ny\n', 'x\ny\n', 'x\nother\ny\n', '\n')).to.equal(undefined);
  });
});

describe('migrate --write: the style of a file', () => {
  it('tells JSON and its indentation from YAML', () => {
    expect(detectStyle('{\n    "a": {\n        "b": 1\n    }\n}\n').json).to.deep.equal({ indent: '    ' });
    expect(detectStyle('{\n\t"a": 1\n}').json).to.deep.equal({ indent: '\t' });
    expect(detectStyle('{"a":1}').json).to.deep.equal({ indent: '' });
    expect(detectStyle('{a: 1}\n').json).to.equal(undefined);
    expect(detectStyle('a: 1\n').json).to.equal(undefined);
  });

  it('reads YAML indentation, sequence indentation and flow padding, with yaml defaults when the file is silent', () => {
    expect(detectStyle('a:\n    b:\n    - 1\n    c: {d: 1}\n').yaml).to.deep.equal({
      indent: 4,
      indentSeq: false,
      flowCollectionPadding: false,
    });
    expect(detectStyle('# a:\na:\n  # x:\n  - { b: 1 }\n').yaml).to.deep.equal({
      indent: 2,
      indentSeq: true,
      flowCollectionPadding: true,
    });
    expect(detectStyle('a: 1\n').yaml).to.deep.equal({ indent: 2, indentSeq: true, flowCollectionPadding: true });
  });

  it('reads line endings, the byte-order mark and the final line break, and renders text back in them', () => {
    const s = detectStyle('\uFEFFa: 1\r\nb: 2');
    expect([s.eol, s.bom, s.finalNewline]).to.deep.equal(['\r\n', true, false]);
    expect(inStyle('a: 1\nb: 3\n', s)).to.equal('\uFEFFa: 1\r\nb: 3');
    const lf = detectStyle('a: 1\nb: 2\n');
    expect([lf.eol, lf.bom, lf.finalNewline]).to.deep.equal(['\n', false, true]);
    expect(inStyle('a: 1\n', lf)).to.equal('a: 1\n');
  });
});

describe('migrate --write: the meaning survives any formatting', () => {
  const cluster = (name: string, extra: boolean): Record<string, unknown> => ({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: {
      name,
      labels: { team: 'infra', tier: '1' },
      annotations: {
        ...(extra ? { owner: 'infra' } : {}),
        'cluster.karmada.io/health-checker': '{"url":"https://health.example.com:8443/healthz"}',
      },
    },
    spec: { syncMode: 'Push', taints: [{ key: 'a', effect: 'NoSchedule' }], secretRef: { namespace: 'k', name } },
  });
  const migrated = (name: string, extra: boolean): Record<string, unknown> => ({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, labels: { team: 'infra', tier: '1' }, ...(extra ? { annotations: { owner: 'infra' } } : {}) },
    spec: {
      syncMode: 'Push',
      taints: [{ key: 'a', effect: 'NoSchedule' }],
      secretRef: { namespace: 'k', name },
      livenessProbe: {
        httpGet: { scheme: 'HTTPS', host: 'health.example.com', port: 8443, path: '/healthz' },
        timeoutSeconds: 10,
      },
    },
  });

  it('writes text that holds the migrated Clusters and nothing else changed, whatever the style of the file', () => {
    fc.assert(
      fc.property(
        fc.record({
          indent: fc.integer({ min: 1, max: 6 }),
          indentSeq: fc.boolean(),
          flow: fc.constantFrom('any' as const, 'flow' as const),
          padding: fc.boolean(),
          crlf: fc.boolean(),
          asList: fc.boolean(),
          extra: fc.boolean(),
          json: fc.constantFrom(undefined, '', '  ', '\t'),
        }),
        (o) => {
          const objects = [cluster('a', o.extra), cluster('b', !o.extra)];
          const want = [migrated('a', o.extra), migrated('b', !o.extra)];
          const opts = { indent: o.indent, indentSeq: o.indentSeq, flowCollectionPadding: o.padding };
          let text: string;
          let expected: unknown[];
          if (o.json !== undefined) {
            text = `${JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }, null, o.json)}\n`;
            expected = [{ apiVersion: 'v1', kind: 'List', items: want }];
          } else if (o.asList) {
            text = stringify({ apiVersion: 'v1', kind: 'List', items: objects }, { ...opts, collectionStyle: o.flow });
            expected = [{ apiVersion: 'v1', kind: 'List', items: want }];
          } else {
            text = objects.map((x) => stringify(x, { ...opts, collectionStyle: o.flow })).join('---\n');
            expected = want;
          }
          if (o.crlf) text = text.replace(/\n/g, '\r\n');
          const outcome = migrateSource(parseSource('f.yaml', text), { probeLocation: 'field', defaults: false });
          expect(outcome.errors).to.deep.equal([]);
          expect(outcome.changed).to.equal(true);
          expect(parseAllDocuments(outcome.text).map((d) => d.toJS() as unknown)).to.deep.equal(expected);
          // Block style (what people write) always merges line by line; a folded flow document may be re-rendered.
          if (o.flow === 'any' || o.json !== undefined)
            expect(outcome.warnings.join('\n')).to.not.contain('re-rendered');
          if (o.crlf) expect(outcome.text.replace(/\r\n/g, '')).to.not.contain('\n');
          if (o.json !== undefined) expect(() => JSON.parse(outcome.text) as unknown).to.not.throw();
        },
      ),
      { numRuns: 150 },
    );
  });
});
