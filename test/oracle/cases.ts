// The oracle table: Clusters judged by Karmada's and Kubernetes' own validation code (test/oracle/*/main.go) and by
// the schema library. Rows are written from the cases in their own tests (named in `source`; read, not copied):
// Karmada pkg/apis/cluster/validation/validation_test.go, Kubernetes pkg/apis/core/validation/validation_test.go
// (TestValidateProbe, Test_validateProbe, TestValidateHandler) and apimachinery pkg/util/validation/validation_test.go
// (TestIsDNS1123Label, TestIsValidPortNum, TestIsValidPortName, TestIsQualifiedName, TestIsValidLabelValue,
// TestIsHTTPHeaderName); `ours` rows probe the edges of rules the library adds or words its own way.
// `expect` is the verdict the source expects; the test checks the oracles still give it. Where the library differs
// on purpose, the row's name is in DIFFERENCES (differences.ts) with a reason and both sides' exact messages.

export type Obj = Record<string, unknown>;

export interface OracleCase {
  name: string;
  /** Where the case comes from: an upstream test (and its list), or `ours`. */
  source: string;
  /** The verdict of the real servers, as the source expects it. */
  expect: 'accept' | 'reject';
  /** A whole Cluster, as a user would apply it. */
  object: Obj;
}

export const API_ENDPOINT = 'https://10.20.0.5:6443';

/** Drops keys whose value is undefined, so a row can remove a base field. */
function defined(o: Obj): Obj {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}

/** A valid Push Cluster named `member` with `spec` and `metadata` merged in. */
export function cluster(spec: Obj = {}, metadata: Obj = {}): Obj {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: defined({ name: 'member', ...metadata }),
    spec: defined({ syncMode: 'Push', apiEndpoint: API_ENDPOINT, ...spec }),
  };
}

const probe = (p: Obj): Obj => cluster({ livenessProbe: p });
const httpGet = (h: Obj, rest: Obj = {}): Obj => probe({ httpGet: { port: 8080, path: '/healthz', ...h }, ...rest });
const tcp = (port: unknown): Obj => probe({ tcpSocket: { port } });

/** A short, unique label for a value in a row name. */
function show(v: string): string {
  const m = /^(.)\1{15,}$/.exec(v);
  if (m) return `"${m[1] ?? ''}"x${v.length}`;
  const long = /^(.)\1{15,}\/(.+)$/.exec(v);
  if (long) return `"${long[1] ?? ''}"x${v.indexOf('/')}/${show(long[2] ?? '')}`;
  return JSON.stringify(v);
}

const rows: OracleCase[] = [];
function add(name: string, source: string, expect: OracleCase['expect'], object: Obj): void {
  rows.push({ name, source, expect, object });
}
function each(
  values: readonly string[],
  expect: OracleCase['expect'],
  source: string,
  make: (v: string) => [string, Obj],
) {
  for (const v of values) {
    const [name, object] = make(v);
    add(name, source, expect, object);
  }
}

const KARMADA = 'karmada TestValidateCluster';
const DNS_LABEL = 'apimachinery TestIsDNS1123Label';
const PORT_NUM = 'apimachinery TestIsValidPortNum';
const PORT_NAME = 'apimachinery TestIsValidPortName';
const QUALIFIED = 'apimachinery TestIsQualifiedName';
const LABEL_VALUE = 'apimachinery TestIsValidLabelValue';
const HEADER = 'apimachinery TestIsHTTPHeaderName';
const HANDLER = 'kubernetes TestValidateHandler';
const PROBE = 'kubernetes Test_validateProbe';
const OURS = 'ours';

// --- metadata.name: Karmada's ValidateClusterName (at most 48 characters, a DNS-1123 label) -----------------------
each(
  ['a', 'ab', 'abc', 'a1', 'a-1', 'a--1--2--b', '0', '01', '012', '1a', '1-a', '1--a--b--2', 'a'.repeat(48)],
  'accept',
  `${DNS_LABEL} good`,
  (v) => [`metadata.name ${show(v)}`, cluster({}, { name: v })],
);
each(
  ['A', 'ABC', 'aBc', 'A1', 'A-1', '1-A', '-', 'a-', '-a', '1-', '-1', '_', 'a_', '_a', 'a_b', '1_', '_1', '1_2'],
  'reject',
  `${DNS_LABEL} bad`,
  (v) => [`metadata.name ${show(v)}`, cluster({}, { name: v })],
);
each(
  ['.', 'a.', '.a', 'a.b', '1.', '.1', '1.2', ' ', 'a ', ' a', 'a b', '1 ', ' 1', '1 2', 'a'.repeat(64)],
  'reject',
  `${DNS_LABEL} bad`,
  (v) => [`metadata.name ${show(v)}`, cluster({}, { name: v })],
);
add('metadata.name empty', `${KARMADA} "zero-length name"`, 'reject', cluster({}, { name: '' }));
add('metadata.name "^Invalid"', `${KARMADA} "invalid name"`, 'reject', cluster({}, { name: '^Invalid' }));
add(
  'metadata.name "a"x49',
  `${KARMADA} "invalid name that is too long"`,
  'reject',
  cluster({}, { name: 'a'.repeat(49) }),
);
add('metadata.name "a"x63', `${DNS_LABEL} good, over Karmada's 48`, 'reject', cluster({}, { name: 'a'.repeat(63) }));
add('metadata.name "A"x49', OURS, 'reject', cluster({}, { name: 'A'.repeat(49) }));
add('metadata.name "ä"x30', `${KARMADA}: 60 bytes`, 'reject', cluster({}, { name: 'ä'.repeat(30) }));
add('metadata.generateName "member"', OURS, 'accept', cluster({}, { name: undefined, generateName: 'member' }));
add(
  'metadata.generateName "member-"',
  'karmada ValidateClusterName, also given generateName',
  'reject',
  cluster({}, { name: undefined, generateName: 'member-' }),
);

// --- metadata beyond the name: the apiserver's ObjectMeta checks ---------------------------------------------------
add('metadata.labels key with a space', OURS, 'reject', cluster({}, { labels: { 'a b': 'c' } }));
add('metadata.labels value with a space', OURS, 'reject', cluster({}, { labels: { a: 'b c' } }));
add('metadata.annotations key with a space', OURS, 'reject', cluster({}, { annotations: { 'a b': 'c' } }));
add('metadata.labels valid', OURS, 'accept', cluster({}, { labels: { 'topology.example.com/zone': 'eu-1' } }));

// --- spec.syncMode ---------------------------------------------------------------------------------------------
add('syncMode Push', KARMADA, 'accept', cluster({ syncMode: 'Push' }));
add('syncMode Pull', KARMADA, 'accept', cluster({ syncMode: 'Pull' }));
add('syncMode missing', `${KARMADA} "no sync mode"`, 'reject', cluster({ syncMode: undefined }));
add('syncMode "^Invalid"', `${KARMADA} "unsupported sync mode"`, 'reject', cluster({ syncMode: '^Invalid' }));
add('syncMode "push"', OURS, 'reject', cluster({ syncMode: 'push' }));
add('syncMode "Both"', OURS, 'reject', cluster({ syncMode: 'Both' }));

// --- spec.apiEndpoint: Karmada's ValidateClusterAPIEndpoint ----------------------------------------------------
for (const v of [
  'https://10.20.0.5:6443',
  'https://member.example.com',
  'http://192.0.2.10',
  'https://[fd00::1]:6443',
  'https://member.example.com/k8s/clusters/c-1',
  'https://member.example.com:99999',
  '//member.example.com:6443',
])
  add(`apiEndpoint ${show(v)}`, OURS, 'accept', cluster({ apiEndpoint: v }));
add('apiEndpoint "^Invalid"', `${KARMADA} "invalid apiEndpoint"`, 'reject', cluster({ apiEndpoint: '^Invalid' }));
for (const v of [
  '10.20.0.5:6443',
  'member.example.com:6443',
  'member.example.com',
  'https://',
  'https://admin@member.example.com',
  'https://admin:s3cret@member.example.com',
  'https://member.example.com#top',
  'https://member.example.com?x=1',
  'https://member.example.com:http',
  'https://[fd00::1:6443',
  ':6443',
])
  add(`apiEndpoint ${show(v)}`, OURS, 'reject', cluster({ apiEndpoint: v }));

// --- secret references -----------------------------------------------------------------------------------------
add('secretRef set', OURS, 'accept', cluster({ secretRef: { namespace: 'karmada-cluster', name: 'member' } }));
add(
  'secretRef empty strings',
  `${KARMADA} "empty secretRef"`,
  'reject',
  cluster({ secretRef: { namespace: '', name: '' } }),
);
add('secretRef {}', `${KARMADA} "empty secretRef"`, 'reject', cluster({ secretRef: {} }));
add(
  'impersonatorSecretRef empty strings',
  `${KARMADA} "empty impersonatorSecretRef"`,
  'reject',
  cluster({ impersonatorSecretRef: { namespace: '', name: '' } }),
);
add('impersonatorSecretRef without name', OURS, 'reject', cluster({ impersonatorSecretRef: { namespace: 'ns' } }));

// --- spec.proxyURL: Karmada's ValidateClusterProxyURL ----------------------------------------------------------
for (const v of [
  'http://proxy.example.com:3128',
  'https://proxy.example.com',
  'socks5://10.0.0.1:1080',
  'HTTP://proxy',
])
  add(`proxyURL ${show(v)}`, OURS, 'accept', cluster({ proxyURL: v }));
add('proxyURL "^Invalid"', `${KARMADA} "invalid proxyURL"`, 'reject', cluster({ proxyURL: '^Invalid' }));
for (const v of ['ftp://proxy.example.com', 'proxy.example.com:3128', '://proxy', 'http://proxy:port'])
  add(`proxyURL ${show(v)}`, OURS, 'reject', cluster({ proxyURL: v }));

// --- provider, region, zone, zones: Karmada's validateClusterSpecForFieldSelector (label values) ----------------
const LABEL_GOOD = ['simple', 'now-with-dashes', '1-starts-with-num', 'end-with-num-1', '1234', 'a'.repeat(63), ''];
const LABEL_BAD = [
  'nospecialchars%^=@',
  'Tama-nui-te-rā.is.Māori.sun',
  '\\backslashes\\are\\bad',
  '-starts-with-dash',
  'ends-with-dash-',
  '.starts.with.dot',
  'ends.with.dot.',
  'a'.repeat(64),
];
each(LABEL_GOOD, 'accept', `${LABEL_VALUE} success`, (v) => [`provider ${show(v)}`, cluster({ provider: v })]);
each(LABEL_BAD, 'reject', `${LABEL_VALUE} error`, (v) => [`provider ${show(v)}`, cluster({ provider: v })]);
add('provider "ā"x40', `${LABEL_VALUE} error, 80 bytes`, 'reject', cluster({ provider: 'ā'.repeat(40) }));
add(
  'provider "Invalid Provider"',
  `${KARMADA} "invalid provider"`,
  'reject',
  cluster({ provider: 'Invalid Provider' }),
);
add('region "eu-west-1"', OURS, 'accept', cluster({ region: 'eu-west-1' }));
add('region "Invalid Region"', `${KARMADA} "invalid region"`, 'reject', cluster({ region: 'Invalid Region' }));
add('region "ends.with.dot."', `${LABEL_VALUE} error`, 'reject', cluster({ region: 'ends.with.dot.' }));
add('region "a"x64', `${LABEL_VALUE} error`, 'reject', cluster({ region: 'a'.repeat(64) }));
add('zone "eu-west-1a"', OURS, 'accept', cluster({ zone: 'eu-west-1a' }));
add('zone "Invalid Zone"', `${KARMADA} "invalid zone"`, 'reject', cluster({ zone: 'Invalid Zone' }));
add('zone "-starts-with-dash"', `${LABEL_VALUE} error`, 'reject', cluster({ zone: '-starts-with-dash' }));
add('zones valid', OURS, 'accept', cluster({ zones: ['eu-west-1a', 'eu-west-1b'] }));
add(
  'zones ["Invalid Zone","Zone2"]',
  `${KARMADA} "invalid zones"`,
  'reject',
  cluster({ zones: ['Invalid Zone', 'Zone2'] }),
);
add('zones two invalid', `${LABEL_VALUE} error`, 'reject', cluster({ zones: ['ok', 'a b', '.c'] }));
add('zones [""]', `${LABEL_VALUE} success`, 'accept', cluster({ zones: [''] }));
add('zone and zones', `${KARMADA} "co-exist zones and zone"`, 'reject', cluster({ zone: 'Zone', zones: ['Zones'] }));
add('zone "" and zones', OURS, 'accept', cluster({ zone: '', zones: ['eu-west-1a'] }));
add('zone and zones, both invalid', OURS, 'reject', cluster({ zone: 'a b', zones: ['c d'] }));
add('provider and region invalid together', OURS, 'reject', cluster({ provider: 'a b', region: 'c d' }));

// --- taints: Karmada's ValidateClusterTaints (lifted from Kubernetes' validateNodeTaints) ----------------------
const taint = (t: Obj): Obj => cluster({ taints: [t] });
const QUALIFIED_GOOD = [
  'simple',
  'now-with-dashes',
  '1-starts-with-num',
  '1234',
  'simple/simple',
  'now-with-dashes/simple',
  'now-with-dashes/now-with-dashes',
  'now.with.dots/simple',
  'now-with.dashes-and.dots/simple',
  '1-num.2-num/3-num',
  '1234/5678',
  '1.2.3.4/5678',
  'Uppercase_Is_OK_123',
  'example.com/Uppercase_Is_OK_123',
  'requests.storage-foo',
  'a'.repeat(63),
  `${'a'.repeat(253)}/${'b'.repeat(63)}`,
];
const QUALIFIED_BAD = [
  'nospecialchars%^=@',
  'cantendwithadash-',
  '-cantstartwithadash-',
  'only/one/slash',
  'Example.com/abc',
  'example_com/abc',
  'example.com/',
  '/simple',
  'a'.repeat(64),
  `${'a'.repeat(254)}/abc`,
];
each(QUALIFIED_GOOD, 'accept', `${QUALIFIED} success`, (v) => [
  `taint key ${show(v)}`,
  taint({ key: v, effect: 'NoSchedule' }),
]);
each(QUALIFIED_BAD, 'reject', `${QUALIFIED} error`, (v) => [
  `taint key ${show(v)}`,
  taint({ key: v, effect: 'NoSchedule' }),
]);
add('taint key empty', OURS, 'reject', taint({ key: '', effect: 'NoSchedule' }));
each(['', 'bar', 'a'.repeat(63)], 'accept', `${LABEL_VALUE} success`, (v) => [
  `taint value ${show(v)}`,
  taint({ key: 'foo', value: v, effect: 'NoExecute' }),
]);
each(['x y', 'ends-with-dash-', 'a'.repeat(64)], 'reject', `${LABEL_VALUE} error`, (v) => [
  `taint value ${show(v)}`,
  taint({ key: 'foo', value: v, effect: 'NoExecute' }),
]);
add('taint effect NoSchedule', OURS, 'accept', taint({ key: 'foo', value: 'bar', effect: 'NoSchedule' }));
add('taint effect NoExecute', OURS, 'accept', taint({ key: 'foo', effect: 'NoExecute' }));
add(
  'taint effect "^Invalid"',
  `${KARMADA} "unsupported taint effect"`,
  'reject',
  taint({ key: 'foo', value: 'bar', effect: '^Invalid' }),
);
add('taint effect PreferNoSchedule', OURS, 'reject', taint({ key: 'foo', effect: 'PreferNoSchedule' }));
add('taint effect empty', OURS, 'reject', taint({ key: 'foo', effect: '' }));
add('taint effect missing', OURS, 'reject', taint({ key: 'foo' }));
add('taint effect "noschedule"', OURS, 'reject', taint({ key: 'foo', effect: 'noschedule' }));
add(
  'taints duplicate key and effect',
  OURS,
  'reject',
  cluster({
    taints: [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', value: 'b', effect: 'NoSchedule' },
    ],
  }),
);
add(
  'taints duplicate with an empty value',
  OURS,
  'reject',
  cluster({
    taints: [
      { key: 'a', value: 'b', effect: 'NoSchedule' },
      { key: 'a', value: '', effect: 'NoSchedule' },
    ],
  }),
);
add(
  'taints same key, other effect',
  OURS,
  'accept',
  cluster({
    taints: [
      { key: 'a', effect: 'NoSchedule' },
      { key: 'a', effect: 'NoExecute' },
    ],
  }),
);
add(
  'taints three with the same key',
  OURS,
  'reject',
  cluster({
    taints: [
      { key: 'a', value: '1', effect: 'NoExecute' },
      { key: 'a', value: '2', effect: 'NoExecute' },
      { key: 'a', value: '3', effect: 'NoExecute' },
    ],
  }),
);

// --- resource models: Karmada's ValidateClusterResourceModels, after the create strategy's standardisation ---------
const MAX = '9223372036854775807';
const models = (...m: [number, [string, string, string][]][]): Obj =>
  cluster({
    resourceModels: m.map(([grade, ranges]) => ({
      grade,
      ranges: ranges.map(([name, min, max]) => ({ name, min, max })),
    })),
  });
add(
  'resourceModels cpu and memory',
  OURS,
  'accept',
  models(
    [
      0,
      [
        ['cpu', '0', '4'],
        ['memory', '0', '16Gi'],
      ],
    ],
    [
      1,
      [
        ['cpu', '4', MAX],
        ['memory', '16Gi', MAX],
      ],
    ],
  ),
);
add('resourceModels one grade', OURS, 'accept', models([0, [['cpu', '0', MAX]]]));
add(
  'resourceModels same grade',
  `${KARMADA} "invalid cluster resource models with the same grade"`,
  'reject',
  models([1, [['cpu', '0', '2']]], [1, [['cpu', '2', MAX]]]),
);
add(
  'resourceModels different numbers of resources',
  `${KARMADA} "... with different numbers of resource types"`,
  'reject',
  models(
    [1, [['cpu', '0', '2']]],
    [
      2,
      [
        ['cpu', '2', MAX],
        ['memory', '2', MAX],
      ],
    ],
  ),
);
add(
  'resourceModels max below min',
  `${KARMADA} "... with unreasonable ranges", standardised on create (the first min becomes 0)`,
  'accept',
  models([1, [['cpu', '2', '1']]], [2, [['cpu', '1', MAX]]]),
);
add(
  'resourceModels max equals min',
  OURS,
  'reject',
  models([0, [['cpu', '0', '2']]], [1, [['cpu', '2', '2']]], [2, [['cpu', '2', MAX]]]),
);
add(
  'resourceModels first min not 0',
  `${KARMADA} "... the min value of each resource in the first model is not 0", standardised on create`,
  'accept',
  models([1, [['cpu', '1', MAX]]]),
);
add(
  'resourceModels last max not MaxInt64',
  `${KARMADA} "... the max value of each resource in the last model is not MaxInt64", standardised on create`,
  'accept',
  models([1, [['cpu', '0', '2']]]),
);
add(
  'resourceModels resources differ between grades',
  `${KARMADA} "... the resource types of each models are different"`,
  'reject',
  models([1, [['cpu', '0', '2']]], [2, [['memory', '2', MAX]]]),
);
add(
  'resourceModels not contiguous',
  `${KARMADA} "... with contiguous and non-overlapping"`,
  'reject',
  models([1, [['cpu', '0', '2']]], [2, [['cpu', '1', MAX]]]),
);
add(
  'resourceModels resource "test"',
  `${KARMADA} "... with invalid resource name" (an error there only for the missing syncMode)`,
  'accept',
  models([1, [['test', '0', MAX]]]),
);
add('resourceModels resource "gpu"', OURS, 'accept', models([0, [['gpu', '0', '1']]], [1, [['gpu', '1', MAX]]]));
add(
  'resourceModels resource "nvidia.com/gpu"',
  OURS,
  'accept',
  models(
    [
      0,
      [
        ['cpu', '0', '8'],
        ['nvidia.com/gpu', '0', '1'],
      ],
    ],
    [
      1,
      [
        ['cpu', '8', MAX],
        ['nvidia.com/gpu', '1', MAX],
      ],
    ],
  ),
);
add('resourceModels resource "pods"', OURS, 'accept', models([0, [['pods', '0', '110']]], [1, [['pods', '110', MAX]]]));
add('resourceModels grades out of order', OURS, 'accept', models([2, [['cpu', '4', MAX]]], [1, [['cpu', '0', '4']]]));
add(
  'resourceModels overlapping ranges',
  OURS,
  'reject',
  models([0, [['cpu', '0', '4']]], [1, [['cpu', '2', '8']]], [2, [['cpu', '8', MAX]]]),
);
add(
  'resourceModels equal amounts written differently',
  OURS,
  'reject',
  models([0, [['memory', '0', '4Gi']]], [1, [['memory', '4294967296', MAX]]]),
);
add('resourceModels empty ranges', OURS, 'accept', models([0, []], [1, []]));
add('resourceModels malformed quantity', OURS, 'reject', models([0, [['cpu', '0', 'lots']]]));

// --- the probe: Kubernetes' probe validation (handlers, ports, headers, timings), with the v1 defaults ----------
add('probe httpGet', HANDLER, 'accept', httpGet({}));
add('probe tcpSocket', OURS, 'accept', tcp(6443));
add('probe grpc', OURS, 'accept', probe({ grpc: { port: 9090, service: 'karmada' } }));
add(
  'probe apiServer',
  OURS,
  'accept',
  cluster({ secretRef: { namespace: 'ns', name: 'member' }, livenessProbe: { apiServer: { minReadyNodes: 2 } } }),
);
add('probe without a handler', `${HANDLER} error {}`, 'reject', probe({ periodSeconds: 5 }));
add('probe {}', `${PROBE} "must specify a handler type"`, 'reject', probe({}));
add('probe httpGet and tcpSocket', OURS, 'reject', probe({ httpGet: { port: 80 }, tcpSocket: { port: 80 } }));
add('probe tcpSocket and grpc', OURS, 'reject', probe({ tcpSocket: { port: 80 }, grpc: { port: 81 } }));
add(
  'probe three handlers',
  OURS,
  'reject',
  probe({ httpGet: { port: 80 }, tcpSocket: { port: 80 }, grpc: { port: 81 } }),
);
add(
  'probe httpGet and apiServer',
  OURS,
  'reject',
  cluster({ secretRef: { namespace: 'ns', name: 'm' }, livenessProbe: { httpGet: { port: 80 }, apiServer: {} } }),
);
add('probe exec', `${HANDLER} success exec`, 'accept', probe({ exec: { command: ['echo'] } }));
add('probe second handler invalid too', OURS, 'reject', probe({ httpGet: { port: 0 }, tcpSocket: { port: 70000 } }));

// TestValidateHandler's httpGet cases.
add('probe httpGet path / port 1', `${HANDLER} success`, 'accept', httpGet({ path: '/', port: 1, scheme: 'HTTP' }));
add(
  'probe httpGet /foo 65535 host',
  `${HANDLER} success`,
  'accept',
  httpGet({ path: '/foo', port: 65535, host: 'host' }),
);
add('probe httpGet port "port"', `${HANDLER} success`, 'accept', httpGet({ path: '/', port: 'port' }));
add(
  'probe httpGet Host header',
  `${HANDLER} success`,
  'accept',
  httpGet({ httpHeaders: [{ name: 'Host', value: 'foo.example.com' }] }),
);
add(
  'probe httpGet repeated header',
  `${HANDLER} success`,
  'accept',
  httpGet({
    httpHeaders: [
      { name: 'X-Forwarded-For', value: '1.2.3.4' },
      { name: 'X-Forwarded-For', value: '5.6.7.8' },
    ],
  }),
);
add('probe httpGet path "" port 0', `${HANDLER} error`, 'reject', httpGet({ path: '', port: 0 }));
add(
  'probe httpGet /foo 65536 host',
  `${HANDLER} error`,
  'reject',
  httpGet({ path: '/foo', port: 65536, host: 'host' }),
);
add('probe httpGet path "" port ""', `${HANDLER} error`, 'reject', httpGet({ path: '', port: '' }));
add(
  'probe httpGet header "Host:"',
  `${HANDLER} error`,
  'reject',
  httpGet({ httpHeaders: [{ name: 'Host:', value: 'foo.example.com' }] }),
);
add(
  'probe httpGet header "X_Forwarded_For"',
  `${HANDLER} error`,
  'reject',
  httpGet({ httpHeaders: [{ name: 'X_Forwarded_For', value: 'x' }] }),
);
add('probe httpGet without port', OURS, 'reject', probe({ httpGet: { path: '/' } }));

// Port numbers and names, on httpGet and tcpSocket; grpc takes numbers only.
each(['1', '2', '1000', '16384', '32768', '65535'], 'accept', `${PORT_NUM} good`, (v) => [
  `probe httpGet port ${v}`,
  httpGet({ port: Number(v) }),
]);
each(['0', '-1', '65536', '100000'], 'reject', `${PORT_NUM} bad`, (v) => [
  `probe httpGet port ${v}`,
  httpGet({ port: Number(v) }),
]);
each(['1', '65535'], 'accept', `${PORT_NUM} good`, (v) => [`probe tcpSocket port ${v}`, tcp(Number(v))]);
each(['0', '65536'], 'reject', `${PORT_NUM} bad`, (v) => [`probe tcpSocket port ${v}`, tcp(Number(v))]);
each(['1', '65535'], 'accept', `${PORT_NUM} good`, (v) => [
  `probe grpc port ${v}`,
  probe({ grpc: { port: Number(v) } }),
]);
each(['0', '-1', '65536'], 'reject', `${PORT_NUM} bad`, (v) => [
  `probe grpc port ${v}`,
  probe({ grpc: { port: Number(v) } }),
]);
add('probe grpc port "http"', OURS, 'reject', probe({ grpc: { port: 'http' } }));
const PORT_NAME_GOOD = ['telnet', 're-mail-ck', 'pop3', 'a', 'a-1', '1-a', 'a-1-b-2-c', '1-a-2-b-3'];
const PORT_NAME_BAD = [
  'longerthan15characters',
  '',
  'a'.repeat(16),
  '12345',
  '1-2-3-4',
  '-begin',
  'end-',
  'two--hyphens',
  'whois++',
];
each(PORT_NAME_GOOD, 'accept', `${PORT_NAME} good`, (v) => [
  `probe httpGet port name ${show(v)}`,
  httpGet({ port: v }),
]);
each(PORT_NAME_BAD, 'reject', `${PORT_NAME} bad`, (v) => [`probe httpGet port name ${show(v)}`, httpGet({ port: v })]);
each(['https', 'a-1-b-2-c'], 'accept', `${PORT_NAME} good`, (v) => [`probe tcpSocket port name ${show(v)}`, tcp(v)]);
each(['HTTPS', 'two--hyphens', '-begin-', 'x_y'], 'reject', `${PORT_NAME} bad`, (v) => [
  `probe tcpSocket port name ${show(v)}`,
  tcp(v),
]);

// Header names.
const HEADER_GOOD = [
  'Accept-Encoding',
  'Host',
  'If-Modified-Since',
  'X-Forwarded-For',
  'a',
  'ab',
  'abc',
  'a1',
  '-a',
  'a-',
  'a-b',
  'a-1',
  'a--1--2--b',
  '--abc-123',
  'A',
  'AB',
  'AbC',
  'A1',
  '-A',
  'A-',
  'A-B',
  'A-1',
  'A--1--2--B',
  '--123-ABC',
];
const HEADER_BAD = [
  'Host:',
  'X-Forwarded-For:',
  'X-@Home',
  '',
  '_',
  'a_',
  '_a',
  '1_',
  '1_2',
  '.',
  'a.',
  '.a',
  'a.b',
  '1.',
  '.1',
  '1.2',
  ' ',
  'a ',
  ' a',
  'a b',
  '1 ',
  ' 1',
  '1 2',
  '#a#',
  '^',
  ',',
  ';',
  '=',
  '<',
  '?',
  '@',
  '{',
];
const header = (name: string): Obj => httpGet({ httpHeaders: [{ name, value: 'v' }] });
each(HEADER_GOOD, 'accept', `${HEADER} good`, (v) => [`probe header ${show(v)}`, header(v)]);
each(HEADER_BAD, 'reject', `${HEADER} bad`, (v) => [`probe header ${show(v)}`, header(v)]);
add(
  'probe two bad headers',
  OURS,
  'reject',
  httpGet({
    httpHeaders: [
      { name: 'a b', value: '1' },
      { name: 'c:d', value: '2' },
    ],
  }),
);

// Scheme and path (Kubernetes defaults an empty path to / and an empty scheme to HTTP).
add('probe scheme HTTP', OURS, 'accept', httpGet({ scheme: 'HTTP' }));
add('probe scheme HTTPS', OURS, 'accept', httpGet({ scheme: 'HTTPS' }));
add('probe scheme "https"', OURS, 'reject', httpGet({ scheme: 'https' }));
add('probe scheme FTP', OURS, 'reject', httpGet({ scheme: 'FTP' }));
add('probe scheme empty', OURS, 'accept', httpGet({ scheme: '' }));
add('probe path empty', OURS, 'accept', httpGet({ path: '' }));
add('probe path without /', OURS, 'accept', httpGet({ path: 'healthz' }));
add('probe path with a query', OURS, 'accept', httpGet({ path: '/readyz?verbose' }));

// Timings: Test_validateProbe's negative values, zeros (defaulted by Kubernetes), and the liveness rule.
for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
  add(`probe ${f} -1`, `${PROBE} ${f} -1`, 'reject', probe({ tcpSocket: { port: 80 }, [f]: -1 }));
for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'failureThreshold'])
  add(`probe ${f} 10`, 'kubernetes TestValidateProbe success', 'accept', probe({ tcpSocket: { port: 80 }, [f]: 10 }));
for (const f of ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'])
  add(`probe ${f} 0`, OURS, 'accept', probe({ tcpSocket: { port: 80 }, [f]: 0 }));
add('probe successThreshold 1', OURS, 'accept', probe({ tcpSocket: { port: 80 }, successThreshold: 1 }));
add(
  'probe successThreshold 3',
  'kubernetes validateLivenessProbe',
  'reject',
  probe({ tcpSocket: { port: 80 }, successThreshold: 3 }),
);
add(
  'probe terminationGracePeriodSeconds 1',
  `${PROBE} 1`,
  'accept',
  probe({ tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 1 }),
);
add(
  'probe terminationGracePeriodSeconds 0',
  `${PROBE} 0`,
  'reject',
  probe({ tcpSocket: { port: 80 }, terminationGracePeriodSeconds: 0 }),
);
add(
  'probe all timings',
  OURS,
  'accept',
  probe({
    tcpSocket: { port: 1 },
    initialDelaySeconds: 0,
    timeoutSeconds: 1,
    periodSeconds: 1,
    successThreshold: 1,
    failureThreshold: 1,
  }),
);

// Hosts and TLS: Kubernetes does not check a probe's host; the library does (and keeps its deny list).
add('probe host DNS name', OURS, 'accept', httpGet({ host: 'member.example.com' }));
add('probe host IPv6', OURS, 'accept', probe({ tcpSocket: { port: 6443, host: 'fd00::1' } }));
add('probe host with an underscore', OURS, 'accept', httpGet({ host: 'member_1.example.com' }));
add('probe host metadata address', OURS, 'accept', httpGet({ host: '169.254.169.254' }));
add('probe host URL', OURS, 'accept', probe({ tcpSocket: { port: 6443, host: 'https://member.example.com' } }));
add('probe HTTPS insecureSkipTLSVerify', OURS, 'accept', httpGet({ scheme: 'HTTPS', insecureSkipTLSVerify: true }));

export const CASES: readonly OracleCase[] = rows;
