// Table-driven: each case is a Cluster (or a change to a valid one) and the exact apiserver-style messages expected,
// written from Kubernetes' and Karmada's validation rules and messages (apimachinery util/validation, core probe
// validation, karmada pkg/apis/cluster/validation), not copied from this code's output.
import { expect } from 'chai';
import { validateCluster, type ValidateOptions } from '../../../packages/schema/src/schema/index.js';

type Obj = Record<string, unknown>;

function base(): Obj {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: 'member-dev' },
    spec: {
      syncMode: 'Push',
      apiEndpoint: 'https://10.20.0.5:6443',
      secretRef: { namespace: 'karmada-cluster', name: 'member-dev' },
      livenessProbe: { httpGet: { port: 8080, path: '/healthz' } },
    },
  };
}

/** A valid Cluster with `change` applied to a copy. */
function withChange(change: (c: Obj & { spec: Obj; metadata: Obj }) => void): Obj {
  const c = base() as Obj & { spec: Obj; metadata: Obj };
  change(c);
  return c;
}
const probe = (p: unknown) => withChange((c) => (c.spec.livenessProbe = p));
const spec = (s: Obj) => withChange((c) => Object.assign(c.spec, s));
const legacy = (v: string, s: Obj = {}) =>
  withChange((c) => {
    c.metadata.annotations = { 'cluster.karmada.io/health-checker': v };
    delete c.spec.livenessProbe;
    Object.assign(c.spec, s);
  });

const LABEL_REGEX =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const SUBDOMAIN_REGEX =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const HEADER_REGEX =
  "a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')";
const QUALIFIED_NAME_REGEX =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const FORM = '; desired format: hostname, hostname:port, IP or IP:port';
const RANGE = 'must be between 1 and 65535, inclusive';
const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nMIIBdzCCAR2gAwIBAgIUJd2\n-----END CERTIFICATE-----\n').toString(
  'base64',
);

interface Case {
  name: string;
  obj: unknown;
  errors: string[];
  warnings?: string[];
  options?: ValidateOptions;
}

const cases: Case[] = [
  // --- valid Clusters -------------------------------------------------------------------------------------------
  { name: 'a Push cluster with an httpGet probe', obj: base(), errors: [] },
  { name: 'a probe with a named port', obj: probe({ httpGet: { port: 'https', scheme: 'HTTPS' } }), errors: [] },
  { name: 'a tcpSocket probe', obj: probe({ tcpSocket: { port: 6443 } }), errors: [] },
  { name: 'a grpc probe with a service', obj: probe({ grpc: { port: 9090, service: 'karmada' } }), errors: [] },
  {
    name: 'an apiServer probe with counts',
    obj: probe({ apiServer: { minReadyNodes: 1, minReadyPods: 0 } }),
    errors: [],
  },
  {
    name: 'every timing field at its minimum',
    obj: probe({
      tcpSocket: { port: 1 },
      initialDelaySeconds: 0,
      timeoutSeconds: 1,
      periodSeconds: 1,
      successThreshold: 1,
      failureThreshold: 1,
    }),
    errors: [],
  },
  {
    name: 'successThreshold above 1 (recovery damping)',
    obj: probe({ tcpSocket: { port: 443 }, successThreshold: 3 }),
    errors: [],
  },
  { name: 'a Cluster without a probe', obj: withChange((c) => delete c.spec.livenessProbe), errors: [] },
  {
    name: 'a Pull cluster with an apiServer probe and no secretRef',
    obj: spec({ syncMode: 'Pull', secretRef: undefined, livenessProbe: { apiServer: {} } }),
    errors: [],
  },
  { name: 'a 48-character name', obj: withChange((c) => (c.metadata.name = 'a'.repeat(48))), errors: [] },
  { name: 'an IPv6 apiEndpoint', obj: spec({ apiEndpoint: 'https://[fd00::5]:6443' }), errors: [] },
  { name: 'a socks5 proxyURL', obj: spec({ proxyURL: 'socks5://proxy.example.com:1080' }), errors: [] },
  {
    name: 'an explicit host and headers',
    obj: probe({
      httpGet: { host: 'health.example.com', port: 80, httpHeaders: [{ name: 'X-Probe', value: 'a b c' }] },
    }),
    errors: [],
  },
  { name: 'a NoExecute taint', obj: spec({ taints: [{ key: 'example.com/down', effect: 'NoExecute' }] }), errors: [] },
  {
    name: 'same taint key with two effects',
    obj: spec({
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'a', effect: 'NoExecute' },
      ],
    }),
    errors: [],
  },
  {
    name: 'contiguous resource models',
    obj: spec({
      resourceModels: [
        { grade: 0, ranges: [{ name: 'cpu', min: '0', max: '2' }] },
        { grade: 1, ranges: [{ name: 'cpu', min: '2', max: '9223372036854775807' }] },
      ],
    }),
    errors: [],
  },
  // --- metadata ------------------------------------------------------------------------------------------------
  {
    name: 'a missing name',
    obj: withChange((c) => delete c.metadata.name),
    errors: ['metadata.name: Required value: name or generateName is required'],
  },
  {
    name: 'a 49-character name',
    obj: withChange((c) => (c.metadata.name = 'a'.repeat(49))),
    errors: [`metadata.name: Invalid value: "${'a'.repeat(49)}": must be no more than 48 characters`],
  },
  {
    name: 'an uppercase name',
    obj: withChange((c) => (c.metadata.name = 'Member')),
    errors: [`metadata.name: Invalid value: "Member": ${LABEL_REGEX}`],
  },
  {
    name: 'a name with dots',
    obj: withChange((c) => (c.metadata.name = 'member.dev')),
    errors: ['metadata.name: Invalid value: "member.dev": must not contain dots'],
  },
  {
    name: 'a name ending in a hyphen',
    obj: withChange((c) => (c.metadata.name = 'member-')),
    errors: [`metadata.name: Invalid value: "member-": ${LABEL_REGEX}`],
  },
  {
    name: 'a foreign kind',
    obj: withChange((c) => (c.kind = 'Pod')),
    errors: ['kind: Unsupported value: "Pod": supported values: "Cluster"'],
  },
  {
    name: 'a foreign apiVersion',
    obj: withChange((c) => (c.apiVersion = 'cluster.karmada.io/v1')),
    errors: ['apiVersion: Unsupported value: "cluster.karmada.io/v1": supported values: "cluster.karmada.io/v1alpha1"'],
  },
  {
    name: 'a document that is not an object',
    obj: 'Cluster',
    errors: ['Invalid value: "string": body must be of type object: "string"'],
  },
  // --- Karmada's spec rules ------------------------------------------------------------------------------------
  {
    name: 'a missing syncMode',
    obj: withChange((c) => delete c.spec.syncMode),
    errors: ['spec.syncMode: Required value'],
  },
  {
    name: 'an unknown syncMode',
    obj: spec({ syncMode: 'Both' }),
    errors: ['spec.syncMode: Unsupported value: "Both": supported values: "Pull", "Push"'],
  },
  { name: 'a missing spec', obj: withChange((c) => delete (c as Obj).spec), errors: ['spec: Required value'] },
  {
    name: 'apiEndpoint as host:port',
    obj: spec({ apiEndpoint: '10.0.0.1:6443' }),
    errors: [
      `spec.apiEndpoint: Invalid value: "10.0.0.1:6443": apiEndpoint must be a valid URL: parse "10.0.0.1:6443": first path segment in URL cannot contain colon${FORM}`,
      'spec.livenessProbe.httpGet.host: Required value: required when spec.apiEndpoint is not set',
    ],
  },
  {
    name: 'apiEndpoint without a host',
    obj: spec({ apiEndpoint: 'member.example.com', livenessProbe: { httpGet: { host: 'h.example.com', port: 80 } } }),
    errors: [`spec.apiEndpoint: Invalid value: "": host must be provided${FORM}`],
  },
  {
    name: 'apiEndpoint with userinfo',
    obj: spec({ apiEndpoint: 'https://admin@10.0.0.1:6443' }),
    errors: [
      'spec.apiEndpoint: Invalid value: "admin": user information is not permitted in the URL',
      'spec.livenessProbe.httpGet.host: Required value: required when spec.apiEndpoint is not set',
    ],
  },
  {
    name: 'apiEndpoint with a password is never echoed',
    obj: spec({ apiEndpoint: 'https://admin:s3cret@10.0.0.1:6443', livenessProbe: undefined }),
    errors: ['spec.apiEndpoint: Invalid value: "admin:xxxxx": user information is not permitted in the URL'],
  },
  {
    name: 'apiEndpoint with a query',
    obj: spec({ apiEndpoint: 'https://10.0.0.1:6443?x=1', livenessProbe: undefined }),
    errors: ['spec.apiEndpoint: Invalid value: "x=1": query parameters are not permitted in the URL'],
  },
  {
    name: 'apiEndpoint with a fragment',
    obj: spec({ apiEndpoint: 'https://10.0.0.1:6443#top', livenessProbe: undefined }),
    errors: ['spec.apiEndpoint: Invalid value: "top": fragments are not permitted in the URL'],
  },
  {
    name: 'secretRef without namespace',
    obj: spec({ secretRef: { name: 'member-dev' } }),
    errors: ['spec.secretRef.namespace: Required value'],
  },
  {
    name: 'secretRef with empty strings',
    obj: spec({ secretRef: { namespace: '', name: '' } }),
    errors: ['spec.secretRef.name: Required value', 'spec.secretRef.namespace: Required value'],
  },
  {
    name: 'impersonatorSecretRef without name',
    obj: spec({ impersonatorSecretRef: { namespace: 'karmada-cluster' } }),
    errors: ['spec.impersonatorSecretRef.name: Required value'],
  },
  {
    name: 'an ftp proxyURL',
    obj: spec({ proxyURL: 'ftp://proxy:21' }),
    errors: [
      'spec.proxyURL: Invalid value: "ftp://proxy:21": unsupported scheme "ftp", must be http, https, or socks5',
    ],
  },
  {
    name: 'zone and zones together',
    obj: spec({ zone: 'a', zones: ['a'] }),
    errors: ['spec.zones: Forbidden: may not be set together with spec.zone (deprecated); move the zone into zones'],
  },
  {
    name: 'the deprecated zone warns',
    obj: spec({ zone: 'eu-west-1a' }),
    errors: [],
    warnings: ['spec.zone is deprecated; use spec.zones'],
  },
  {
    name: 'a taint with an unsupported effect',
    obj: spec({ taints: [{ key: 'a', effect: 'PreferNoSchedule' }] }),
    errors: [
      'spec.taints[0].effect: Unsupported value: "PreferNoSchedule": supported values: "NoSchedule", "NoExecute"',
    ],
  },
  {
    name: 'a taint without an effect',
    obj: spec({ taints: [{ key: 'a' }] }),
    errors: ['spec.taints[0].effect: Required value'],
  },
  {
    name: 'a duplicate taint',
    obj: spec({
      taints: [
        { key: 'a', effect: 'NoSchedule' },
        { key: 'a', value: 'b', effect: 'NoSchedule' },
      ],
    }),
    errors: [
      'spec.taints[1]: Duplicate value: {"key":"a","value":"b","effect":"NoSchedule"}: taints must be unique by key and effect pair',
    ],
  },
  {
    name: 'a taint key with a space',
    obj: spec({ taints: [{ key: 'bad key', effect: 'NoSchedule' }] }),
    errors: [`spec.taints[0].key: Invalid value: "bad key": ${QUALIFIED_NAME_REGEX}`],
  },
  {
    name: 'a taint key with an empty prefix',
    obj: spec({ taints: [{ key: '/a', effect: 'NoSchedule' }] }),
    errors: ['spec.taints[0].key: Invalid value: "/a": prefix part must be non-empty'],
  },
  {
    name: 'a taint value that is not a label value',
    obj: spec({ taints: [{ key: 'a', value: 'x y', effect: 'NoSchedule' }] }),
    errors: [`spec.taints[0].value: Invalid value: "x y": ${LABEL_VALUE_REGEX}`],
  },
  {
    name: 'resource models with a duplicate grade',
    obj: spec({
      resourceModels: [
        { grade: 0, ranges: [] },
        { grade: 0, ranges: [] },
      ],
    }),
    errors: [
      'spec.resourceModels[1].grade: Duplicate value: 0: the grade of each model must be unique (see spec.resourceModels[0])',
    ],
  },
  {
    name: 'resource models that do not start at 0',
    obj: spec({ resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '1', max: '9223372036854775807' }] }] }),
    errors: [
      'spec.resourceModels[0].ranges[0].min: Invalid value: "1": must be 0 in the first model (ranges start at 0)',
    ],
  },
  {
    name: 'resource models with a gap',
    obj: spec({
      resourceModels: [
        { grade: 0, ranges: [{ name: 'memory', min: '0', max: '4Gi' }] },
        { grade: 1, ranges: [{ name: 'memory', min: '5Gi', max: '9223372036854775807' }] },
      ],
    }),
    errors: [
      'spec.resourceModels[1].ranges[0].min: Invalid value: "5Gi": must equal the max of memory in grade 0 (4Gi): ranges must be contiguous and non-overlapping',
    ],
  },
  {
    name: 'a resource model of any resource, as Karmada models GPUs',
    obj: spec({ resourceModels: [{ grade: 0, ranges: [{ name: 'gpu', min: '0', max: '9223372036854775807' }] }] }),
    errors: [],
  },
  {
    name: 'a resource model whose max is not above min',
    obj: spec({ resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: '0' }] }] }),
    errors: [
      'spec.resourceModels[0].ranges[0].max: Invalid value: "0": must be greater than min',
      'spec.resourceModels[0].ranges[0].max: Invalid value: "0": must be 9223372036854775807 (MaxInt64) in the last model',
    ],
  },
  {
    name: 'a resource model with a malformed quantity',
    obj: spec({ resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: 'lots' }] }] }),
    errors: [
      'spec.resourceModels[0].ranges[0].max: Invalid value: "lots": quantities must match the regular expression \'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$\'',
    ],
  },
  // --- the probe -----------------------------------------------------------------------------------------------
  {
    name: 'a probe with no handler',
    obj: probe({ periodSeconds: 10 }),
    errors: ['spec.livenessProbe: Required value: must specify a handler type'],
  },
  {
    name: 'a probe with two handlers',
    obj: probe({ httpGet: { port: 80 }, tcpSocket: { port: 80 } }),
    errors: ['spec.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
  },
  {
    name: 'a probe with three handlers',
    obj: probe({ httpGet: { port: 80 }, grpc: { port: 80 }, apiServer: {} }),
    errors: [
      'spec.livenessProbe.apiServer: Forbidden: may not specify more than 1 handler type',
      'spec.livenessProbe.grpc: Forbidden: may not specify more than 1 handler type',
    ],
  },
  {
    name: 'an httpGet port above 65535',
    obj: probe({ httpGet: { port: 70000 } }),
    errors: [`spec.livenessProbe.httpGet.port: Invalid value: 70000: ${RANGE}`],
  },
  {
    name: 'an httpGet port of 0',
    obj: probe({ httpGet: { port: 0 } }),
    errors: [`spec.livenessProbe.httpGet.port: Invalid value: 0: ${RANGE}`],
  },
  {
    name: 'a missing httpGet port',
    obj: probe({ httpGet: { path: '/' } }),
    errors: ['spec.livenessProbe.httpGet.port: Required value'],
  },
  {
    name: 'a port name with uppercase letters',
    obj: probe({ httpGet: { port: 'HTTPS' } }),
    errors: [
      'spec.livenessProbe.httpGet.port: Invalid value: "HTTPS": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      'spec.livenessProbe.httpGet.port: Invalid value: "HTTPS": must contain at least one letter (a-z)',
    ],
  },
  {
    name: 'a port name longer than 15',
    obj: probe({ tcpSocket: { port: 'a-very-long-port-name' } }),
    errors: [
      'spec.livenessProbe.tcpSocket.port: Invalid value: "a-very-long-port-name": must be no more than 15 characters',
    ],
  },
  {
    name: 'a port name with consecutive hyphens',
    obj: probe({ tcpSocket: { port: 'my--port' } }),
    errors: ['spec.livenessProbe.tcpSocket.port: Invalid value: "my--port": must not contain consecutive hyphens'],
  },
  {
    name: 'a port name of digits',
    obj: probe({ tcpSocket: { port: '8080' } }),
    errors: ['spec.livenessProbe.tcpSocket.port: Invalid value: "8080": must contain at least one letter (a-z)'],
  },
  {
    name: 'a port name starting with a hyphen',
    obj: probe({ tcpSocket: { port: '-http' } }),
    errors: ['spec.livenessProbe.tcpSocket.port: Invalid value: "-http": must not begin or end with a hyphen'],
  },
  {
    name: 'a fractional port',
    obj: probe({ tcpSocket: { port: 80.5 } }),
    errors: [
      'spec.livenessProbe.tcpSocket.port: Invalid value: "number": spec.livenessProbe.tcpSocket.port in body must be of type integer,string: "number"',
    ],
  },
  {
    name: 'a grpc port given by name',
    obj: probe({ grpc: { port: 'grpc' } }),
    errors: [
      'spec.livenessProbe.grpc.port: Invalid value: "string": spec.livenessProbe.grpc.port in body must be of type integer: "string"',
    ],
  },
  {
    name: 'a grpc port above 65535',
    obj: probe({ grpc: { port: 65536 } }),
    errors: [`spec.livenessProbe.grpc.port: Invalid value: 65536: ${RANGE}`],
  },
  {
    name: 'an unsupported scheme',
    obj: probe({ httpGet: { port: 80, scheme: 'FTP' } }),
    errors: ['spec.livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"'],
  },
  {
    name: 'a lowercase scheme',
    obj: probe({ httpGet: { port: 80, scheme: 'https' } }),
    errors: ['spec.livenessProbe.httpGet.scheme: Unsupported value: "https": supported values: "HTTP", "HTTPS"'],
  },
  {
    name: 'a header name with a space',
    obj: probe({ httpGet: { port: 80, httpHeaders: [{ name: 'X Probe', value: '1' }] } }),
    errors: [`spec.livenessProbe.httpGet.httpHeaders: Invalid value: "X Probe": ${HEADER_REGEX}`],
  },
  {
    name: 'a header without a value',
    obj: probe({ httpGet: { port: 80, httpHeaders: [{ name: 'X-Probe' }] } }),
    errors: ['spec.livenessProbe.httpGet.httpHeaders[0].value: Required value'],
  },
  {
    name: 'a path without a leading slash',
    obj: probe({ httpGet: { port: 80, path: 'healthz' } }),
    errors: ['spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with \'/\''],
  },
  {
    name: 'a host with an underscore',
    obj: probe({ httpGet: { port: 80, host: 'bad_host' } }),
    errors: [
      `spec.livenessProbe.httpGet.host: Invalid value: "bad_host": must be a valid IP address or DNS name: ${SUBDOMAIN_REGEX}`,
    ],
  },
  {
    name: 'a host that is a URL',
    obj: probe({ tcpSocket: { port: 80, host: 'https://h' } }),
    errors: [
      `spec.livenessProbe.tcpSocket.host: Invalid value: "https://h": must be a valid IP address or DNS name: ${SUBDOMAIN_REGEX}`,
    ],
  },
  {
    name: 'a caBundle that is not base64',
    obj: probe({ httpGet: { port: 443, scheme: 'HTTPS', caBundle: 'not base64!' } }),
    errors: ['spec.livenessProbe.httpGet.caBundle: Invalid value: must be base64-encoded'],
  },
  {
    name: 'a caBundle without a certificate',
    obj: probe({ httpGet: { port: 443, scheme: 'HTTPS', caBundle: Buffer.from('hello').toString('base64') } }),
    errors: [
      'spec.livenessProbe.httpGet.caBundle: Invalid value: must be base64-encoded PEM holding at least one CERTIFICATE block',
    ],
  },
  {
    name: 'a caBundle whose certificate is garbage',
    obj: probe({ httpGet: { port: 443, scheme: 'HTTPS', caBundle: CA } }),
    errors: [
      'spec.livenessProbe.httpGet.caBundle: Invalid value: certificate 1 of the bundle is not a valid X.509 certificate',
    ],
  },
  {
    name: 'a negative initialDelaySeconds',
    obj: probe({ tcpSocket: { port: 80 }, initialDelaySeconds: -1 }),
    errors: [
      'spec.livenessProbe.initialDelaySeconds: Invalid value: -1: spec.livenessProbe.initialDelaySeconds in body should be greater than or equal to 0',
    ],
  },
  {
    name: 'a periodSeconds of 0',
    obj: probe({ tcpSocket: { port: 80 }, periodSeconds: 0 }),
    errors: [
      'spec.livenessProbe.periodSeconds: Invalid value: 0: spec.livenessProbe.periodSeconds in body should be greater than or equal to 1',
    ],
  },
  {
    name: 'a failureThreshold of 0',
    obj: probe({ tcpSocket: { port: 80 }, failureThreshold: 0 }),
    errors: [
      'spec.livenessProbe.failureThreshold: Invalid value: 0: spec.livenessProbe.failureThreshold in body should be greater than or equal to 1',
    ],
  },
  {
    name: 'a timeoutSeconds given as a string',
    obj: probe({ tcpSocket: { port: 80 }, timeoutSeconds: '5' }),
    errors: [
      'spec.livenessProbe.timeoutSeconds: Invalid value: "string": spec.livenessProbe.timeoutSeconds in body must be of type integer: "string"',
    ],
  },
  {
    name: 'a misspelt probe field',
    obj: probe({ tcpSocket: { port: 80 }, periodSecond: 5 }),
    errors: ['spec.livenessProbe.periodSecond: Forbidden: unknown field "periodSecond"; check its spelling'],
  },
  {
    name: 'a negative minReadyNodes',
    obj: probe({ apiServer: { minReadyNodes: -1 } }),
    errors: [
      'spec.livenessProbe.apiServer.minReadyNodes: Invalid value: -1: spec.livenessProbe.apiServer.minReadyNodes in body should be greater than or equal to 0',
    ],
  },
  {
    name: 'an apiServer probe of a Push cluster without secretRef',
    obj: spec({ secretRef: undefined, livenessProbe: { apiServer: {} } }),
    errors: [
      'spec.secretRef: Required value: required by spec.livenessProbe.apiServer for a Push cluster: the probe uses its token and caBundle',
    ],
  },
  {
    name: 'an apiServer probe without apiEndpoint',
    obj: spec({ apiEndpoint: undefined, livenessProbe: { apiServer: {} } }),
    errors: ['spec.apiEndpoint: Required value: required by spec.livenessProbe.apiServer'],
  },
  {
    name: 'caBundle with insecureSkipTLSVerify',
    obj: probe({
      httpGet: {
        port: 443,
        scheme: 'HTTPS',
        caBundle: Buffer.from('x').toString('base64'),
        insecureSkipTLSVerify: true,
      },
    }),
    errors: [
      'spec.livenessProbe.httpGet.caBundle: Invalid value: must be base64-encoded PEM holding at least one CERTIFICATE block',
      'spec.livenessProbe.httpGet.insecureSkipTLSVerify: Forbidden: may not be set together with caBundle',
    ],
  },
  {
    name: 'insecureSkipTLSVerify warns',
    obj: probe({ httpGet: { port: 443, scheme: 'HTTPS', insecureSkipTLSVerify: true } }),
    errors: [],
    warnings: ["spec.livenessProbe.httpGet.insecureSkipTLSVerify: the server's certificate is not verified"],
  },
  {
    name: 'several errors at once',
    obj: probe({ httpGet: { port: 70000, scheme: 'FTP' }, timeoutSeconds: 0 }),
    errors: [
      `spec.livenessProbe.httpGet.port: Invalid value: 70000: ${RANGE}`,
      'spec.livenessProbe.httpGet.scheme: Unsupported value: "FTP": supported values: "HTTP", "HTTPS"',
      'spec.livenessProbe.timeoutSeconds: Invalid value: 0: spec.livenessProbe.timeoutSeconds in body should be greater than or equal to 1',
    ],
  },
  // --- the deny list ---------------------------------------------------------------------------------------------
  {
    name: 'a probe aimed at the cloud metadata address',
    obj: probe({ httpGet: { host: '169.254.169.254', port: 80 } }),
    options: { denyHosts: ['169.254.0.0/16'] },
    errors: [
      'spec.livenessProbe.httpGet.host: Forbidden: 169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it',
    ],
  },
  {
    name: 'an IPv4-mapped metadata address',
    obj: probe({ tcpSocket: { host: '::ffff:169.254.169.254', port: 80 } }),
    options: { denyHosts: ['169.254.0.0/16'] },
    errors: [
      'spec.livenessProbe.tcpSocket.host: Forbidden: ::ffff:169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it',
    ],
  },
  {
    name: 'a probe whose default host is denied',
    obj: spec({ apiEndpoint: 'https://[fe80::1]:6443' }),
    options: { denyHosts: ['fe80::/10'] },
    errors: [
      'spec.livenessProbe.httpGet.host: Forbidden: fe80::1 (the host of spec.apiEndpoint) is in the denied address range fe80::/10; probes may not target it',
    ],
  },
  {
    name: 'a probe to an allowed address',
    obj: probe({ httpGet: { host: '10.1.2.3', port: 80 } }),
    options: { denyHosts: ['169.254.0.0/16'] },
    errors: [],
  },
  // --- probe locations -------------------------------------------------------------------------------------------
  {
    name: 'spec.livenessProbe where the annotation location is configured',
    obj: base(),
    options: { probeLocation: 'annotation' },
    errors: [
      'spec.livenessProbe: Forbidden: this installation keeps the probe in annotation cluster.karmada.io/liveness-probe (--probe-location=annotation); move it there or run `cluster-probe migrate --probe-location annotation`',
    ],
  },
  {
    name: 'a valid probe annotation',
    obj: withChange((c) => {
      delete c.spec.livenessProbe;
      c.metadata.annotations = { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":6443}}' };
    }),
    options: { probeLocation: 'annotation' },
    errors: [],
  },
  {
    name: 'a probe annotation with a bad port',
    obj: withChange((c) => {
      delete c.spec.livenessProbe;
      c.metadata.annotations = { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":0}}' };
    }),
    options: { probeLocation: 'annotation' },
    errors: [`metadata.annotations[cluster.karmada.io/liveness-probe].tcpSocket.port: Invalid value: 0: ${RANGE}`],
  },
  {
    name: 'a probe annotation that is not JSON',
    obj: withChange((c) => {
      delete c.spec.livenessProbe;
      c.metadata.annotations = { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":' };
    }),
    options: { probeLocation: 'annotation' },
    errors: [
      'metadata.annotations[cluster.karmada.io/liveness-probe]: Invalid value: invalid JSON at position 13: Unexpected end of JSON input',
    ],
  },
  {
    name: 'a probe in both places',
    obj: withChange(
      (c) => (c.metadata.annotations = { 'cluster.karmada.io/liveness-probe': '{"tcpSocket":{"port":6443}}' }),
    ),
    errors: [
      'metadata.annotations[cluster.karmada.io/liveness-probe]: Forbidden: may not be set together with spec.livenessProbe; keep one of them',
    ],
  },
  // --- the legacy annotation -------------------------------------------------------------------------------------
  {
    name: 'a legacy annotation naming a service',
    obj: legacy('{"service":{"namespace":"some-system","name":"member-dev-health","port":80,"path":"/healthz"}}'),
    errors: [],
    warnings: [
      'annotation cluster.karmada.io/health-checker is deprecated; run `cluster-probe migrate` to move it into the probe',
    ],
  },
  {
    name: 'a legacy annotation with a URL',
    obj: legacy('{"url":"https://health.example.com:8443/healthz"}'),
    errors: [],
    warnings: [
      'annotation cluster.karmada.io/health-checker is deprecated; run `cluster-probe migrate` to move it into the probe',
    ],
  },
  {
    name: 'a legacy annotation that is not JSON',
    obj: legacy('{"service":{"namespace":"a","name":"b"}'),
    errors: [
      "metadata.annotations[cluster.karmada.io/health-checker]: Invalid value: invalid JSON at position 39: Expected ',' or '}' after property value",
    ],
  },
  {
    name: 'a legacy annotation with an unknown key',
    obj: legacy('{"service":{"namespace":"a","name":"b"},"timeout":5}'),
    errors: [
      'metadata.annotations[cluster.karmada.io/health-checker].timeout: Forbidden: unknown field "timeout"; check its spelling',
    ],
  },
  {
    name: 'a legacy annotation with neither service nor url',
    obj: legacy('{"caBundle":""}'),
    errors: ['metadata.annotations[cluster.karmada.io/health-checker]: Required value: must name a service or a url'],
  },
  {
    name: 'a legacy annotation with both service and url',
    obj: legacy('{"service":{"namespace":"a","name":"b"},"url":"https://x"}'),
    errors: [
      'metadata.annotations[cluster.karmada.io/health-checker].url: Forbidden: may not be set together with service',
    ],
  },
  {
    name: 'a legacy service without a name',
    obj: legacy('{"service":{"namespace":"a"}}'),
    errors: ['metadata.annotations[cluster.karmada.io/health-checker].service.name: Required value'],
  },
  {
    name: 'a legacy service port out of range',
    obj: legacy('{"service":{"namespace":"a","name":"b","port":0}}'),
    errors: [`metadata.annotations[cluster.karmada.io/health-checker].service.port: Invalid value: 0: ${RANGE}`],
  },
  {
    name: 'a legacy URL with a password',
    obj: legacy('{"url":"https://u:p@health.example.com/"}'),
    errors: [
      'metadata.annotations[cluster.karmada.io/health-checker].url: Forbidden: user information cannot be carried into a probe; send credentials with httpHeaders',
    ],
  },
  {
    name: 'a legacy URL with an ftp scheme',
    obj: legacy('{"url":"ftp://health.example.com/"}'),
    errors: [
      'metadata.annotations[cluster.karmada.io/health-checker].url: Invalid value: "ftp://health.example.com/": unsupported scheme "ftp", must be http or https',
    ],
  },
  {
    name: 'a legacy annotation that disagrees with the field',
    obj: withChange(
      (c) =>
        (c.metadata.annotations = { 'cluster.karmada.io/health-checker': '{"url":"https://health.example.com/"}' }),
    ),
    errors: [
      'metadata.annotations[cluster.karmada.io/health-checker]: Forbidden: disagrees with spec.livenessProbe (httpGet.scheme is "HTTP", the annotation says "HTTPS"); remove the annotation or make them agree',
    ],
  },
];

describe('validateCluster: the table of Kubernetes and Karmada rules', () => {
  it('has at least 60 cases', () => expect(cases.length).to.be.at.least(60));
  for (const c of cases) {
    it(`${c.errors.length === 0 ? 'accepts' : 'rejects'} ${c.name}`, () => {
      const result = validateCluster(c.obj, c.options);
      expect(result.errors.map((e) => e.message)).to.deep.equal(c.errors);
      expect(result.valid).to.equal(c.errors.length === 0);
      if (c.warnings !== undefined) expect(result.warnings).to.deep.equal(c.warnings);
    });
  }
});
