// The markers that let `npm run generate` fill defaults into the files that show them (fixtures' expected halves,
// docs): each marked value is set from the table, nothing unmarked is touched, and a name the schema does not default
// is refused.
import { expect } from 'chai';
import { defaultsByName, fillMarkdown, fillYaml } from '../../../scripts/generate/default-markers.js';
import { HANDLER_DEFAULTS, TIMING_DEFAULTS } from '../../../packages/schema/src/api/index.js';

const table = defaultsByName();
// Two tables of their own, so these cases hold whatever the schema's defaults are.
const base = new Map(table);
base.set('periodSeconds', 10);
base.set('httpGet.path', '/');
const other = new Map(table);
other.set('periodSeconds', 15);
other.set('httpGet.path', '/healthz');

describe('default markers', () => {
  it('reads the same table as src/api', () => {
    expect(table.get('periodSeconds')).to.equal(TIMING_DEFAULTS.periodSeconds);
    expect(table.get('apiServer.path')).to.equal(HANDLER_DEFAULTS.apiServer.path);
  });

  it('fills marked YAML values, plain and inside a JSON string, and leaves the rest alone', () => {
    const text = [
      'expect:',
      '  patch:',
      '    - op: add',
      '      value: 10 # default: periodSeconds',
      '      json: \'{"tcpSocket":{"port":1},"periodSeconds":10,"timeoutSeconds":7}\' # default: periodSeconds',
      '      path: / # default: httpGet.path',
      '      periodSeconds: 10',
    ].join('\n');
    expect(fillYaml(text, other, 'f').split('\n')).to.deep.equal([
      'expect:',
      '  patch:',
      '    - op: add',
      '      value: 15 # default: periodSeconds',
      '      json: \'{"tcpSocket":{"port":1},"periodSeconds":15,"timeoutSeconds":7}\' # default: periodSeconds',
      '      path: /healthz # default: httpGet.path',
      '      periodSeconds: 10',
    ]);
    expect(fillYaml(text, base, 'f')).to.equal(text);
  });

  it('fills marked Markdown spans and the named keys of a marked block', () => {
    const text = [
      'period <!-- default: periodSeconds -->10<!-- /default -->, <!-- default: periodSeconds -->`periodSeconds: 10`<!-- /default -->',
      '<!-- defaults in the next block: periodSeconds -->',
      '```console',
      '{"periodSeconds":10,"timeoutSeconds":10}',
      '```',
      '{"periodSeconds":10}',
    ].join('\n');
    expect(fillMarkdown(text, other, 'f').split('\n')).to.deep.equal([
      'period <!-- default: periodSeconds -->15<!-- /default -->, <!-- default: periodSeconds -->`periodSeconds: 15`<!-- /default -->',
      '<!-- defaults in the next block: periodSeconds -->',
      '```console',
      '{"periodSeconds":15,"timeoutSeconds":10}',
      '```',
      '{"periodSeconds":10}',
    ]);
  });

  it('refuses a name that is not a default of the schema', () => {
    expect(() => fillYaml('a: 1 # default: initialDelaySeconds', table, 'f')).to.throw(/initialDelaySeconds/);
  });
});
