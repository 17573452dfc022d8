// Every message that comes from a Kubernetes (or Karmada) rule, word for word: one row per message, with what the
// library says, what the upstream source says (written from it), and the source file and function it comes from.
// Where the upstream source is on this machine (the Go module cache the control-plane and oracle builds fill:
// k8s.io/kubernetes v1.35.4, k8s.io/apimachinery v0.35.4, k8s.io/kube-openapi as apiextensions-apiserver v0.35.4 pins
// it; Karmada v1.18.2's source tree that scripts/build-karmada.mjs extracts), each row's function and literals are
// also looked up in that file, so a wording that drifts upstream fails here on the next version bump. Without the
// sources that part of a row is skipped (npm run test:oracle judges the same words with the compiled upstream code).
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { validateCluster, validateProbe, type FieldError } from '../../../packages/schema/src/schema/index.js';

const MODCACHE = process.env.GOMODCACHE ?? join(process.env.GOPATH ?? join(homedir(), 'go'), 'pkg', 'mod');
const ROOTS = {
  apimachinery: join(MODCACHE, 'k8s.io', 'apimachinery@v0.35.4'),
  kubernetes: join(MODCACHE, 'k8s.io', 'kubernetes@v1.35.4'),
  'kube-openapi': join(MODCACHE, 'k8s.io', 'kube-openapi@v0.0.0-20250910181357-589584f1c912'),
  karmada:
    process.env.CLUSTER_PROBE_KARMADA_SRC ??
    join(homedir(), '.cache', 'karmada-cluster-probe', 'karmada', 'src-v1.18.2'),
} as const;

interface Row {
  /** What is checked. */
  name: string;
  /** The message the library gives (a whole field error message, or the detail of one). */
  ours: () => string;
  /** The message as the upstream code builds it, written from that code. */
  expected: string;
  source: {
    module: keyof typeof ROOTS;
    file: string;
    /** The Go function that builds (or returns) the message. */
    func: string;
    /** Go source text that must appear in that file: the message's literals, format strings and examples. */
    literals: string[];
  };
}

const cluster = (spec: Record<string, unknown> = {}, metadata: Record<string, unknown> = { name: 'member' }) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata,
  spec: {
    syncMode: 'Push',
    apiEndpoint: 'https://10.0.0.1:6443',
    secretRef: { namespace: 'karmada-cluster', name: 'member' },
    ...spec,
  },
});

/** The one error the library reports at `field` (the row fails when there is not exactly one). */
function at(errors: FieldError[], field: string): FieldError {
  const found = errors.filter((e) => e.field === field);
  expect(
    found.map((e) => e.message),
    `errors at ${field}: ${JSON.stringify(errors.map((e) => e.message))}`,
  ).to.have.length(1);
  return found[0] as FieldError;
}
const clusterError = (spec: Record<string, unknown>, field: string, metadata?: Record<string, unknown>): string =>
  at(validateCluster(cluster(spec, metadata)).errors, field).message;
const probeError = (probe: unknown, field: string): string =>
  at(validateProbe(probe, { apiEndpoint: 'https://10.0.0.1:6443' }).errors, field).message;

const UTIL_VALIDATION = 'pkg/util/validation/validation.go';
const CONTENT_KUBE = 'pkg/api/validate/content/kube.go';
const FIELD_ERRORS = 'pkg/util/validation/field/errors.go';
const CORE_VALIDATION = 'pkg/apis/core/validation/validation.go';
const KARMADA_VALIDATION = 'pkg/apis/cluster/validation/validation.go';
const HEADER = "a valid HTTP header must consist of alphanumeric characters or '-'";
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const LABEL_KEY =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const ENDPOINT_FORM = '; desired format: hostname, hostname:port, IP or IP:port';

const ROWS: Row[] = [
  {
    name: 'an HTTP header name',
    ours: () =>
      probeError(
        { httpGet: { port: 80, httpHeaders: [{ name: 'X_Y', value: 'v' }] } },
        'livenessProbe.httpGet.httpHeaders',
      ),
    expected: `livenessProbe.httpGet.httpHeaders: Invalid value: "X_Y": ${HEADER} (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'IsHTTPHeaderName',
      literals: [`"${HEADER}"`, '"[-A-Za-z0-9]+"', '"X-Header-Name"'],
    },
  },
  {
    name: 'the examples and regex of a RegexError',
    ours: () =>
      probeError(
        { httpGet: { port: 80, httpHeaders: [{ name: 'X_Y', value: 'v' }] } },
        'livenessProbe.httpGet.httpHeaders',
      ),
    expected: `livenessProbe.httpGet.httpHeaders: Invalid value: "X_Y": ${HEADER} (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'RegexError',
      literals: [
        'msg += " (e.g. "',
        'msg += " or "',
        `msg += "'" + examples[i] + "', "`,
        `"regex used for validation is '"`,
      ],
    },
  },
  {
    name: 'a port number out of range',
    ours: () => probeError({ tcpSocket: { port: 70000 } }, 'livenessProbe.tcpSocket.port'),
    expected: 'livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive',
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'IsValidPortNum',
      literals: ['InclusiveRangeError(1, 65535)', '`must be between %d and %d, inclusive`'],
    },
  },
  ...(
    [
      [
        'a port name with other characters',
        'ab_c',
        'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
      ['a port name without a letter', '8080', 'must contain at least one letter (a-z)'],
      ['a port name with two hyphens in a row', 'a--b', 'must not contain consecutive hyphens'],
      ['a port name ending in a hyphen', 'ab-', 'must not begin or end with a hyphen'],
    ] as const
  ).map(([name, port, words]): Row => ({
    name,
    ours: () => probeError({ tcpSocket: { port } }, 'livenessProbe.tcpSocket.port'),
    expected: `livenessProbe.tcpSocket.port: Invalid value: ${JSON.stringify(port)}: ${words}`,
    source: { module: 'apimachinery', file: UTIL_VALIDATION, func: 'IsValidPortName', literals: [`"${words}"`] },
  })),
  {
    name: 'a port name longer than 15',
    ours: () => probeError({ tcpSocket: { port: 'abcdefghijklmnop' } }, 'livenessProbe.tcpSocket.port'),
    expected: 'livenessProbe.tcpSocket.port: Invalid value: "abcdefghijklmnop": must be no more than 15 characters',
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'IsValidPortName',
      literals: ['MaxLenError(15)', '"must be no more than %d characters"'],
    },
  },
  {
    name: 'a probe without a handler',
    ours: () => probeError({ periodSeconds: 10 }, 'livenessProbe'),
    expected: 'livenessProbe: Required value: must specify a handler type',
    source: {
      module: 'kubernetes',
      file: CORE_VALIDATION,
      func: 'validateHandler',
      literals: ['field.Required(fldPath, "must specify a handler type")'],
    },
  },
  {
    name: 'a probe with two handlers',
    ours: () => probeError({ httpGet: { port: 80 }, tcpSocket: { port: 80 } }, 'livenessProbe.tcpSocket'),
    expected: 'livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
    source: {
      module: 'kubernetes',
      file: CORE_VALIDATION,
      func: 'validateHandler',
      literals: ['field.Forbidden(fldPath.Child("tcpSocket"), "may not specify more than 1 handler type")'],
    },
  },
  {
    name: 'a cluster name that is not a DNS label',
    ours: () => clusterError({}, 'metadata.name', { name: 'Member_1' }),
    expected: `metadata.name: Invalid value: "Member_1": ${DNS_LABEL} (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'IsDNS1123Label',
      literals: [`"${DNS_LABEL}"`, '"[a-z0-9]([-a-z0-9]*[a-z0-9])?"', 'dns1123LabelFmt, "my-name", "123-abc"'],
    },
  },
  {
    name: 'a cluster name with dots',
    ours: () => clusterError({}, 'metadata.name', { name: 'member.one' }),
    expected: 'metadata.name: Invalid value: "member.one": must not contain dots',
    source: {
      module: 'apimachinery',
      file: UTIL_VALIDATION,
      func: 'IsDNS1123Label',
      literals: ['"must not contain dots"'],
    },
  },
  {
    name: 'a cluster name longer than 48',
    ours: () => clusterError({}, 'metadata.name', { name: 'a'.repeat(49) }),
    expected: `metadata.name: Invalid value: "${'a'.repeat(49)}": must be no more than 48 characters`,
    source: {
      module: 'karmada',
      file: KARMADA_VALIDATION,
      func: 'ValidateClusterName',
      literals: [
        'fmt.Sprintf("must be no more than %d characters", clusterNameMaxLength)',
        'const clusterNameMaxLength int = 48',
      ],
    },
  },
  {
    name: 'a cluster without a name',
    ours: () => clusterError({}, 'metadata.name', {}),
    expected: 'metadata.name: Required value: name or generateName is required',
    source: {
      module: 'apimachinery',
      file: 'pkg/api/validation/objectmeta.go',
      func: 'ValidateObjectMeta',
      literals: ['field.Required(fldPath.Child("name"), "name or generateName is required")'],
    },
  },
  {
    name: 'a region that is not a label value',
    ours: () => clusterError({ region: 'us east' }, 'spec.region'),
    expected: `spec.region: Invalid value: "us east": ${LABEL_VALUE} (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
    source: {
      module: 'apimachinery',
      file: CONTENT_KUBE,
      func: 'IsLabelValue',
      literals: [`"${LABEL_VALUE}"`, 'labelValueFmt, "MyValue", "my_value", "12345"'],
    },
  },
  {
    name: 'a region longer than 63 bytes (content.MaxLenError says bytes)',
    ours: () =>
      at(
        validateCluster(cluster({ region: 'a'.repeat(64) })).errors.filter((e) => e.type === 'FieldValueInvalid'),
        'spec.region',
      ).message,
    expected: `spec.region: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
    source: {
      module: 'apimachinery',
      file: 'pkg/api/validate/content/errors.go',
      func: 'MaxLenError',
      literals: ['fmt.Sprintf("must be no more than %d bytes", length)'],
    },
  },
  {
    name: 'a taint key with two slashes',
    ours: () => clusterError({ taints: [{ key: 'a/b/c', effect: 'NoSchedule' }] }, 'spec.taints[0].key'),
    expected: `spec.taints[0].key: Invalid value: "a/b/c": a valid label key ${LABEL_KEY} (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    source: {
      module: 'apimachinery',
      file: CONTENT_KUBE,
      func: 'IsLabelKey',
      literals: [
        `"${LABEL_KEY}"`,
        '"a valid label key "+RegexError(labelKeyErrMsg, labelKeyFmt, "MyName", "my.name", "123-abc")+',
        `" with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"`,
      ],
    },
  },
  {
    name: 'a taint key with an empty prefix',
    ours: () => clusterError({ taints: [{ key: '/abc', effect: 'NoSchedule' }] }, 'spec.taints[0].key'),
    expected: 'spec.taints[0].key: Invalid value: "/abc": prefix part must be non-empty',
    source: {
      module: 'apimachinery',
      file: CONTENT_KUBE,
      func: 'IsLabelKey',
      literals: ['"prefix part "+EmptyError()'],
    },
  },
  {
    name: 'a taint key whose prefix is not a DNS subdomain',
    ours: () => clusterError({ taints: [{ key: 'Ex_ample.com/abc', effect: 'NoSchedule' }] }, 'spec.taints[0].key'),
    expected: `spec.taints[0].key: Invalid value: "Ex_ample.com/abc": prefix part ${DNS_SUBDOMAIN} (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
    source: {
      module: 'apimachinery',
      file: 'pkg/api/validate/content/dns.go',
      func: 'isDNS1123Subdomain',
      literals: [`"${DNS_SUBDOMAIN}"`, 'example := "example.com"'],
    },
  },
  {
    name: 'a duplicate taint',
    ours: () =>
      clusterError(
        {
          taints: [
            { key: 'k', effect: 'NoSchedule' },
            { key: 'k', effect: 'NoSchedule' },
          ],
        },
        'spec.taints[1]',
      ),
    expected:
      'spec.taints[1]: Duplicate value: {"key":"k","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    source: {
      module: 'karmada',
      file: 'pkg/util/lifted/validateclustertaints.go',
      func: 'ValidateClusterTaints',
      literals: ['duplicatedError.Detail = "taints must be unique by key and effect pair"'],
    },
  },
  {
    name: 'an unsupported syncMode',
    ours: () => clusterError({ syncMode: 'Both' }, 'spec.syncMode'),
    expected: 'spec.syncMode: Unsupported value: "Both": supported values: "Pull", "Push"',
    source: {
      module: 'apimachinery',
      file: FIELD_ERRORS,
      func: 'NotSupported',
      literals: ['detail = "supported values: " + strings.Join(quotedValues, ", ")', 'return "Unsupported value"'],
    },
  },
  {
    name: 'a string over its maxLength',
    ours: () =>
      at(
        validateCluster(cluster({ region: 'a'.repeat(64) })).errors.filter((e) => e.type === 'FieldValueTooLong'),
        'spec.region',
      ).message,
    expected: 'spec.region: Too long: may not be more than 63 bytes',
    source: {
      module: 'apimachinery',
      file: FIELD_ERRORS,
      func: 'TooLong',
      literals: [
        'msg = fmt.Sprintf("may not be more than %d %s", maxLength, bs)',
        'bs := "bytes"',
        'return "Too long"',
      ],
    },
  },
  {
    name: 'a list over its maxItems',
    ours: () =>
      probeError(
        { httpGet: { port: 80, httpHeaders: Array.from({ length: 33 }, (_, i) => ({ name: `H${i}`, value: 'v' })) } },
        'livenessProbe.httpGet.httpHeaders',
      ),
    expected: 'livenessProbe.httpGet.httpHeaders: Too many: 33: must have at most 32 items',
    source: {
      module: 'apimachinery',
      file: FIELD_ERRORS,
      func: 'TooMany',
      literals: ['msg = fmt.Sprintf("must have at most %d %s", maxQuantity, is)', 'is := "items"', 'return "Too many"'],
    },
  },
  {
    name: "a value below the schema's minimum (the CRD's words)",
    ours: () => probeError({ tcpSocket: { port: 80 }, timeoutSeconds: 0 }, 'livenessProbe.timeoutSeconds'),
    expected:
      'livenessProbe.timeoutSeconds: Invalid value: 0: livenessProbe.timeoutSeconds in body should be greater than or equal to 1',
    source: {
      module: 'kube-openapi',
      file: 'pkg/validation/errors/schema.go',
      func: 'ExceedsMinimum',
      literals: ['minIncFail                = "%s in %s should be greater than or equal to %v"'],
    },
  },
  {
    name: "a value of the wrong type (the CRD's words)",
    ours: () => probeError({ tcpSocket: { port: 80 }, periodSeconds: 'ten' }, 'livenessProbe.periodSeconds'),
    expected:
      'livenessProbe.periodSeconds: Invalid value: "string": livenessProbe.periodSeconds in body must be of type integer: "string"',
    source: {
      module: 'kube-openapi',
      file: 'pkg/validation/errors/schema.go',
      func: 'InvalidType',
      literals: ['typeFailWithData          = "%s in %s must be of type %s: %q"'],
    },
  },
  {
    name: 'an apiEndpoint without a host',
    ours: () => clusterError({ apiEndpoint: 'https://' }, 'spec.apiEndpoint'),
    expected: `spec.apiEndpoint: Invalid value: "": host must be provided${ENDPOINT_FORM}`,
    source: {
      module: 'karmada',
      file: KARMADA_VALIDATION,
      func: 'ValidateClusterAPIEndpoint',
      literals: [
        '"host must be provided"+form',
        'const form = "; desired format: hostname, hostname:port, IP or IP:port"',
      ],
    },
  },
  ...(
    [
      [
        'an apiEndpoint with a query',
        'https://h.example.com?x=1',
        '"x=1"',
        'query parameters are not permitted in the URL',
      ],
      [
        'an apiEndpoint with a fragment',
        'https://h.example.com#top',
        '"top"',
        'fragments are not permitted in the URL',
      ],
      [
        'an apiEndpoint with a user',
        'https://admin@h.example.com',
        '"admin"',
        'user information is not permitted in the URL',
      ],
    ] as const
  ).map(([name, apiEndpoint, shown, words]): Row => ({
    name,
    ours: () => clusterError({ apiEndpoint }, 'spec.apiEndpoint'),
    expected: `spec.apiEndpoint: Invalid value: ${shown}: ${words}`,
    source: {
      module: 'karmada',
      file: KARMADA_VALIDATION,
      func: 'ValidateClusterAPIEndpoint',
      literals: [`"${words}"`],
    },
  })),
  {
    name: 'a proxyURL with another scheme',
    ours: () => clusterError({ proxyURL: 'ftp://proxy.example.com' }, 'spec.proxyURL'),
    expected:
      'spec.proxyURL: Invalid value: "ftp://proxy.example.com": unsupported scheme "ftp", must be http, https, or socks5',
    source: {
      module: 'karmada',
      file: KARMADA_VALIDATION,
      func: 'ValidateClusterProxyURL',
      literals: ['fmt.Sprintf("unsupported scheme %q, must be http, https, or socks5", u.Scheme)'],
    },
  },
];

describe('messages from Kubernetes and Karmada rules, word for word', () => {
  for (const row of ROWS) {
    describe(row.name, () => {
      it(`is ${row.source.module} ${row.source.func}'s message`, () => {
        expect(row.ours()).to.equal(row.expected);
      });

      it(`comes from ${row.source.func} in ${row.source.module}/${row.source.file}`, function () {
        const path = join(ROOTS[row.source.module], row.source.file);
        if (!existsSync(path)) this.skip(); // the upstream source is not on this machine
        const text = readFileSync(path, 'utf8');
        expect(text, `func ${row.source.func}`).to.match(new RegExp(`^func ${row.source.func}[\\[(]`, 'm'));
        for (const literal of row.source.literals)
          expect(text.includes(literal), `${path} holds ${literal}`).to.equal(true);
      });
    });
  }
});
