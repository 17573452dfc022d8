// The rules test/oracle found the library getting wrong against Karmada's and Kubernetes' own code (issue 13), checked
// here without Go: provider, region, zone and zones as label values, an empty taint effect, resource model names, and
// the wording drifts found on the way (label keys and values in bytes, header names, taint duplicates, URLs, names).
// The expected messages are Karmada v1.18.2's and apimachinery v0.35's, as the oracles printed them.
import { expect } from 'chai';
import { validateCluster } from '../../../packages/schema/src/schema/index.js';

type Obj = Record<string, unknown>;

function cluster(spec: Obj = {}, metadata: Obj = { name: 'member' }): Obj {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata,
    spec: { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443', ...spec },
  };
}

const messages = (obj: Obj): string[] => validateCluster(obj).errors.map((e) => e.message);

const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const FORM = '; desired format: hostname, hostname:port, IP or IP:port';

describe('Karmada rules the oracle found missing or mis-worded', function () {
  describe('provider, region, zone and zones are label values', function () {
    it('refuses a provider with a space in Karmada words', function () {
      expect(messages(cluster({ provider: 'Invalid Provider' }))).to.deep.equal([
        `spec.provider: Invalid value: "Invalid Provider": ${LABEL_VALUE}`,
      ]);
    });

    it('refuses a region that ends with a dot', function () {
      expect(messages(cluster({ region: 'eu-west-1.' }))).to.deep.equal([
        `spec.region: Invalid value: "eu-west-1.": ${LABEL_VALUE}`,
      ]);
    });

    it('refuses the deprecated zone at spec.zone and still warns about it', function () {
      const result = validateCluster(cluster({ zone: '-zone-a' }));
      expect(result.errors.map((e) => e.message)).to.deep.equal([
        `spec.zone: Invalid value: "-zone-a": ${LABEL_VALUE}`,
      ]);
      expect(result.warnings).to.deep.equal(['spec.zone is deprecated; use spec.zones']);
    });

    it('refuses each bad entry of zones at its index', function () {
      expect(messages(cluster({ zones: ['eu-west-1a', 'a b', '.c'] }))).to.deep.equal([
        `spec.zones[1]: Invalid value: "a b": ${LABEL_VALUE}`,
        `spec.zones[2]: Invalid value: ".c": ${LABEL_VALUE}`,
      ]);
    });

    it('joins a length and a character problem with "; " as Karmada does, counting UTF-8 bytes', function () {
      const value = 'ā'.repeat(40); // 40 characters, 80 bytes
      expect(messages(cluster({ provider: value }))).to.deep.equal([
        `spec.provider: Invalid value: "${value}": must be no more than 63 bytes; ${LABEL_VALUE}`,
      ]);
    });

    it('accepts empty and well-formed values', function () {
      expect(messages(cluster({ provider: '', region: 'eu-west-1', zones: ['', 'eu-west-1a'] }))).to.deep.equal([]);
    });

    it('checks neither value when zone and zones are both set, as Karmada', function () {
      expect(messages(cluster({ zone: 'a b', zones: ['c d'] }))).to.deep.equal([
        'spec.zones: Forbidden: may not be set together with spec.zone (deprecated); move the zone into zones',
      ]);
    });
  });

  describe('taints', function () {
    it('reports an empty effect as Required value, and only that', function () {
      expect(messages(cluster({ taints: [{ key: 'foo', effect: '' }] }))).to.deep.equal([
        'spec.taints[0].effect: Required value',
      ]);
    });

    it('still reports an unknown effect as Unsupported value', function () {
      expect(messages(cluster({ taints: [{ key: 'foo', effect: 'PreferNoSchedule' }] }))).to.deep.equal([
        'spec.taints[0].effect: Unsupported value: "PreferNoSchedule": supported values: "NoSchedule", "NoExecute"',
      ]);
    });

    it('shows a duplicate taint as Go renders a corev1.Taint: key, value, effect, empty value left out', function () {
      const taints = [
        { effect: 'NoSchedule', value: 'b', key: 'a' },
        { effect: 'NoSchedule', value: '', key: 'a' },
        { effect: 'NoSchedule', value: 'c', key: 'a' },
      ];
      expect(messages(cluster({ taints }))).to.deep.equal([
        'spec.taints[1]: Duplicate value: {"key":"a","effect":"NoSchedule"}: taints must be unique by key and effect pair',
        'spec.taints[2]: Duplicate value: {"key":"a","value":"c","effect":"NoSchedule"}: taints must be unique by key and effect pair',
      ]);
    });

    it('words label key limits in bytes and a key with two slashes as a label key', function () {
      expect(messages(cluster({ taints: [{ key: 'a'.repeat(64), effect: 'NoSchedule' }] }))).to.deep.equal([
        `spec.taints[0].key: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 bytes`,
      ]);
      expect(messages(cluster({ taints: [{ key: 'a/b/c', effect: 'NoSchedule' }] }))[0]).to.match(
        /^spec\.taints\[0\]\.key: Invalid value: "a\/b\/c": a valid label key must consist of /,
      );
    });
  });

  describe('resource models', function () {
    const MAX = '9223372036854775807';

    it('accepts any resource name, as Karmada models GPUs and other extended resources', function () {
      const models = [
        {
          grade: 0,
          ranges: [
            { name: 'nvidia.com/gpu', min: '0', max: '1' },
            { name: 'pods', min: '0', max: '110' },
          ],
        },
        {
          grade: 1,
          ranges: [
            { name: 'nvidia.com/gpu', min: '1', max: MAX },
            { name: 'pods', min: '110', max: MAX },
          ],
        },
      ];
      expect(messages(cluster({ resourceModels: models }))).to.deep.equal([]);
    });

    it('still holds other resources to the same ranges rules', function () {
      const models = [
        { grade: 0, ranges: [{ name: 'nvidia.com/gpu', min: '0', max: '2' }] },
        { grade: 1, ranges: [{ name: 'nvidia.com/gpu', min: '1', max: MAX }] },
      ];
      expect(messages(cluster({ resourceModels: models }))).to.deep.equal([
        'spec.resourceModels[1].ranges[0].min: Invalid value: "1": must equal the max of nvidia.com/gpu in grade 0 (2): ranges must be contiguous and non-overlapping',
      ]);
    });
  });

  describe('names and URLs', function () {
    it('takes generateName as a prefix, as kube-apiserver does for the CRD (Karmada refuses member-)', function () {
      expect(messages(cluster({}, { generateName: 'member-' }))).to.deep.equal([]);
      expect(messages(cluster({}, {}))).to.deep.equal([
        'metadata.name: Required value: name or generateName is required',
      ]);
    });

    it('counts a name in UTF-8 bytes against the 48 limit', function () {
      const name = 'ä'.repeat(30);
      expect(messages(cluster({}, { name }))).to.deep.equal([
        `metadata.name: Invalid value: "${name}": must be no more than 48 characters`,
      ]);
    });

    it("gives Go's url.Parse errors for an apiEndpoint", function () {
      expect(messages(cluster({ apiEndpoint: 'https://' }))).to.deep.equal([
        `spec.apiEndpoint: Invalid value: "": host must be provided${FORM}`,
      ]);
      expect(messages(cluster({ apiEndpoint: 'https://member.example.com:http' }))).to.deep.equal([
        `spec.apiEndpoint: Invalid value: "https://member.example.com:http": apiEndpoint must be a valid URL: parse "https://member.example.com:http": invalid port ":http" after host${FORM}`,
      ]);
      expect(messages(cluster({ apiEndpoint: ':6443' }))).to.deep.equal([
        `spec.apiEndpoint: Invalid value: ":6443": apiEndpoint must be a valid URL: parse ":6443": missing protocol scheme${FORM}`,
      ]);
    });

    it("gives Go's url.Parse errors for a proxyURL, in Karmada's words", function () {
      expect(messages(cluster({ proxyURL: '://proxy' }))).to.deep.equal([
        'spec.proxyURL: Invalid value: "://proxy": apiEndpoint must be a valid URL: parse "://proxy": missing protocol scheme',
      ]);
    });
  });
});
