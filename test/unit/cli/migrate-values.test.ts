// migrate never rewrites a value it did not migrate: when the change has to re-render the file (its own formatting
// and the edit share lines), every plain scalar outside the edit must come back as written, or the file is refused
// and left as it was. yaml writes back the JavaScript value it read, which rounded 12345678901234567890 and MaxInt64
// and turned 1e400 into .inf (YAML) or null (JSON), with exit 0.
import { expect } from 'chai';
import { parseSource } from '../../../src/cli/documents.js';
import { migrateSource } from '../../../src/cli/migrate.js';

const LEGACY = `'{"service":{"namespace":"s","name":"h","port":80,"path":"/healthz"}}'`;
const run = (path: string, text: string) =>
  migrateSource(parseSource(path, text), { probeLocation: 'field', defaults: false });

describe('migrate keeps every value it does not migrate', () => {
  it('refuses a YAML file whose re-render would round a number in another document, and changes nothing', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata:\n  big: 12345678901234567890\n---\n' +
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: v\n  annotations:\n' +
      `    ? cluster.karmada.io/health-checker\n    : ${LEGACY}\nspec:\n  syncMode: Push\n  apiEndpoint: https://v.example.com:6443\n`;
    const out = run('loss.yaml', text);
    expect(out.changed).to.equal(false);
    expect(out.text).to.equal(text);
    expect(out.errors).to.deep.equal([
      "loss.yaml: cannot be migrated without rewriting other values: the change and the file's own formatting touch the same lines, and re-rendered, data.big would be written as 12345678901234567000 instead of 12345678901234567890; move the annotation into the probe by hand",
    ]);
  });

  it('refuses a one-line JSON file whose re-render would turn MaxInt64 into a number past int64', () => {
    const text =
      '{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "j", "annotations": ' +
      '{"cluster.karmada.io/health-checker": "{\\"service\\":{\\"namespace\\":\\"s\\",\\"name\\":\\"h\\"}}"}}, ' +
      '"spec": {"syncMode": "Push", "apiEndpoint": "https://j.example.com:6443", "resourceModels": [{"grade": 0, ' +
      '"ranges": [{"name": "cpu", "min": 0, "max": 9223372036854775807}]}]}}';
    const out = run('loss.json', text);
    expect(out.errors.join('\n'), out.text).to.match(
      /resourceModels\.0\.ranges\.0\.max would be written as 9223372036854776000 instead of 9223372036854775807/,
    );
    expect(out.changed).to.equal(false);
  });

  it('migrates a re-rendered JSON file whose numbers come back as the same values, written differently', () => {
    const text =
      '{"apiVersion": "cluster.karmada.io/v1alpha1", "kind": "Cluster", "metadata": {"name": "j", "annotations": ' +
      '{"cluster.karmada.io/health-checker": "{\\"service\\":{\\"namespace\\":\\"s\\",\\"name\\":\\"h\\"}}"}}, ' +
      '"spec": {"syncMode": "Push", "apiEndpoint": "https://j.example.com:6443", "x": [1.0, 0.10, 1e3, -0, 1.5e-3]}}';
    const out = run('same.json', text);
    expect(out.errors).to.deep.equal([]);
    expect(out.text).to.contain('"x":[1,0.1,1000,0,0.0015]');
  });

  it('migrates a file whose other values survive, big numbers included, changing only the migrated lines', () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata:\n  big: 12345678901234567890\n---\n' +
      'apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata:\n  name: v\n  annotations:\n' +
      `    cluster.karmada.io/health-checker: ${LEGACY}\nspec:\n  syncMode: Push\n  apiEndpoint: https://v.example.com:6443\n`;
    const out = run('ok.yaml', text);
    expect(out.errors).to.deep.equal([]);
    expect(out.changed).to.equal(true);
    expect(out.text).to.contain('big: 12345678901234567890\n');
    expect(out.text).to.contain('livenessProbe:');
    expect(out.text).not.to.contain('health-checker');
  });
});
