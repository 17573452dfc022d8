// Where the schema library and the oracles (Karmada's and Kubernetes' own validation, test/oracle/*/main.go) differ on
// purpose, row by row, with both sides' exact messages: a change on either side makes the row fail, so it is either
// fixed or re-recorded here with its reason. A message ending in `…` is matched by its beginning (Karmada prints whole
// objects). docs/validation.md ("Agreement with Karmada and Kubernetes") lists every row by reason.

export const REASONS = {
  'object-meta':
    'labels, annotations and the rest of ObjectMeta are checked by the apiserver that stores the Cluster, with the same apimachinery code; the library checks what Karmada adds to it (the cluster name)',
  'generate-name-prefix':
    'Karmada passes generateName to ValidateClusterName, which ignores the prefix flag, so `member-` is refused; the library takes it as the prefix it is, as kube-apiserver does for the CRD and the webhook fixtures expect',
  'missing-once':
    'Karmada reports a missing syncMode twice (Required, then Unsupported ""); the library once, as the CRD does',
  'endpoint-dialable':
    'Go accepts an endpoint the probe engine cannot dial (a port above 65535, no scheme); the library refuses it',
  'secret-not-echoed': 'Karmada echoes the password of an apiEndpoint; the library shows the user name only',
  'length-twice':
    "the schema's maxLength (in the CRD too, where the apiserver reports it) says Too long besides Karmada's own message",
  'go-field-names':
    'Karmada names Go fields (spec.Zone, spec.Zones without the index); the library names the field the user wrote and the entry',
  'zone-and-zones':
    'one CEL rule (in the CRD and the library) forbids zone and zones together at spec.zones whenever both are present; Karmada reports TypeInvalid at spec.spec with the whole spec, only when zone is not empty, and checks neither value',
  'models-at-range':
    'Karmada reports the first problem of the resource models at spec.resourceModels with all models as the value; the library reports each problem at the range it is about',
  'models-standardised':
    "Karmada's create strategy (feature CustomizedClusterResourceModeling, on by default) sets the first model's mins to 0 and the last model's maxes to MaxInt64 before it validates; Karmada's ValidateCluster and its tests refuse them, and so does the library, because with the CRD nothing rewrites them",
  'quantity-notation':
    "Karmada compares a range's min with the previous max as Go structs, so the same amount in two notations (4Gi, 4294967296) is not contiguous; the library compares amounts",
  'decode-refusal':
    'the apiserver cannot decode the value into its Go type and refuses the request without a field; the library reports the field, as the CRD does',
  'apiserver-handler-last':
    'apiServer, which Kubernetes lacks, stands in as exec, its first handler; the library checks apiServer last, so the extra handler named differs',
  'not-for-clusters':
    'fields a Pod probe has and a cluster probe does not (exec, terminationGracePeriodSeconds) are unknown fields',
  'every-handler':
    'Kubernetes checks only the first handler given; the library checks every handler, to report everything at once',
  'absolute-path':
    "httpGet.path must start with '/'; Kubernetes defaults an empty path to / and accepts a relative one",
  'present-is-set':
    "Kubernetes' Go types cannot tell an empty or zero value from an absent one and default it; in the CRD and the library a value that is present is judged as written (enum, minimum 1, required port)",
  'crd-minimum':
    "timings are bounded by the schema's minimum (1, or 0 for initialDelaySeconds) and worded as the CRD words it; Kubernetes says must be greater than or equal to 0",
  'success-threshold':
    'successThreshold may exceed 1 for a cluster, to damp recovery; Kubernetes requires 1 for a liveness probe',
  'host-checked':
    'Kubernetes does not check a probe host; the library requires an IP address or a DNS name and applies the deny list',
} as const;

export type Reason = keyof typeof REASONS;

export interface Difference {
  reason: Reason;
  /** The oracles' messages (a refusal before validation as `refused: <reason>`). */
  oracle: string[];
  /** validateCluster's messages. */
  library: string[];
}

const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const LABEL_KEY =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

export const DIFFERENCES: Record<string, Difference> = {
  'metadata.generateName "member-"': {
    reason: 'generate-name-prefix',
    oracle: [
      `metadata.generateName: Invalid value: "member-": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end wi…`,
    ],
    library: [],
  },
  'metadata.labels key with a space': {
    reason: 'object-meta',
    oracle: [`metadata.labels: Invalid value: "a b": ${LABEL_KEY}`],
    library: [],
  },
  'metadata.labels value with a space': {
    reason: 'object-meta',
    oracle: [`metadata.labels: Invalid value: "b c": ${LABEL_VALUE}`],
    library: [],
  },
  'metadata.annotations key with a space': {
    reason: 'object-meta',
    oracle: [`metadata.annotations: Invalid value: "a b": ${LABEL_KEY}`],
    library: [],
  },
  'syncMode missing': {
    reason: 'missing-once',
    oracle: [`spec.syncMode: Required value`, `spec.syncMode: Unsupported value: "": supported values: "Pull", "Push"`],
    library: [`spec.syncMode: Required value`],
  },
  'apiEndpoint "https://member.example.com:99999"': {
    reason: 'endpoint-dialable',
    oracle: [],
    library: [
      `spec.apiEndpoint: Invalid value: "https://member.example.com:99999": apiEndpoint must be a valid URL: parse "https://member.example.com:99999": invalid URL; desired format: hostname, hostname:port, IP or IP:port`,
    ],
  },
  'apiEndpoint "//member.example.com:6443"': {
    reason: 'endpoint-dialable',
    oracle: [],
    library: [
      `spec.apiEndpoint: Invalid value: "//member.example.com:6443": apiEndpoint must be a valid URL: parse "//member.example.com:6443": invalid URL; desired format: hostname, hostname:port, IP or IP:port`,
    ],
  },
  'apiEndpoint "https://admin:s3cret@member.example.com"': {
    reason: 'secret-not-echoed',
    oracle: [`spec.apiEndpoint: Invalid value: "admin:s3cret": user information is not permitted in the URL`],
    library: [`spec.apiEndpoint: Invalid value: "admin:xxxxx": user information is not permitted in the URL`],
  },
  'provider "a"x64': {
    reason: 'length-twice',
    oracle: [`spec.provider: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`],
    library: [
      `spec.provider: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
      `spec.provider: Too long: may not be more than 63 bytes`,
    ],
  },
  'region "a"x64': {
    reason: 'length-twice',
    oracle: [`spec.region: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`],
    library: [
      `spec.region: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
      `spec.region: Too long: may not be more than 63 bytes`,
    ],
  },
  'zone "Invalid Zone"': {
    reason: 'go-field-names',
    oracle: [`spec.Zone: Invalid value: "Invalid Zone": ${LABEL_VALUE}`],
    library: [`spec.zone: Invalid value: "Invalid Zone": ${LABEL_VALUE}`],
  },
  'zone "-starts-with-dash"': {
    reason: 'go-field-names',
    oracle: [`spec.Zone: Invalid value: "-starts-with-dash": ${LABEL_VALUE}`],
    library: [`spec.zone: Invalid value: "-starts-with-dash": ${LABEL_VALUE}`],
  },
  'zones ["Invalid Zone","Zone2"]': {
    reason: 'go-field-names',
    oracle: [`spec.Zones: Invalid value: "Invalid Zone": ${LABEL_VALUE}`],
    library: [`spec.zones[0]: Invalid value: "Invalid Zone": ${LABEL_VALUE}`],
  },
  'zones two invalid': {
    reason: 'go-field-names',
    oracle: [`spec.Zones: Invalid value: ".c": ${LABEL_VALUE}`, `spec.Zones: Invalid value: "a b": ${LABEL_VALUE}`],
    library: [
      `spec.zones[1]: Invalid value: "a b": ${LABEL_VALUE}`,
      `spec.zones[2]: Invalid value: ".c": ${LABEL_VALUE}`,
    ],
  },
  'zone and zones': {
    reason: 'zone-and-zones',
    oracle: [
      `spec.spec: Invalid value: {"SyncMode":"Push","APIEndpoint":"https://10.20.0.5:6443","SecretRef":null,"ImpersonatorSecretRef":null,"InsecureSkipTLSVerification":…`,
    ],
    library: [`spec.zones: Forbidden: may not be set together with spec.zone (deprecated); move the zone into zones`],
  },
  'zone "" and zones': {
    reason: 'zone-and-zones',
    oracle: [],
    library: [`spec.zones: Forbidden: may not be set together with spec.zone (deprecated); move the zone into zones`],
  },
  'zone and zones, both invalid': {
    reason: 'zone-and-zones',
    oracle: [
      `spec.spec: Invalid value: {"SyncMode":"Push","APIEndpoint":"https://10.20.0.5:6443","SecretRef":null,"ImpersonatorSecretRef":null,"InsecureSkipTLSVerification":…`,
    ],
    library: [`spec.zones: Forbidden: may not be set together with spec.zone (deprecated); move the zone into zones`],
  },
  'taint value "a"x64': {
    reason: 'length-twice',
    oracle: [`spec.taints[0].value: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`],
    library: [
      `spec.taints[0].value: Invalid value: "${'a'.repeat(64)}": must be no more than 63 bytes`,
      `spec.taints[0].value: Too long: may not be more than 63 bytes`,
    ],
  },
  'resourceModels same grade': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":1,"Ranges":[{"Name":"cpu","Min":"0","Max":"2"}]},{"Grade":1,"Ranges":[{"Name":"cpu","Min":"2","Max":"9223372036854775807"}]}]: The grade of each models should not be the same`,
    ],
    library: [
      `spec.resourceModels[1].grade: Duplicate value: 1: the grade of each model must be unique (see spec.resourceModels[0])`,
    ],
  },
  'resourceModels different numbers of resources': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":1,"Ranges":[{"Name":"cpu","Min":"0","Max":"2"}]},{"Grade":2,"Ranges":[{"Name":"cpu","Min":"2","Max":"9223372036854…`,
    ],
    library: [
      `spec.resourceModels[1].ranges: Invalid value: 2: the number of resource types must be the same in every model (grade 1 has 1)`,
    ],
  },
  'resourceModels max below min': {
    reason: 'models-standardised',
    oracle: [],
    library: [
      `spec.resourceModels[0].ranges[0].max: Invalid value: "1": must be greater than min`,
      `spec.resourceModels[0].ranges[0].min: Invalid value: "2": must be 0 in the first model (ranges start at 0)`,
    ],
  },
  'resourceModels max equals min': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":0,"Ranges":[{"Name":"cpu","Min":"0","Max":"2"}]},{"Grade":1,"Ranges":[{"Name":"cpu","Min":"2","Max":"2"}]},{"Grade…`,
    ],
    library: [`spec.resourceModels[1].ranges[0].max: Invalid value: "2": must be greater than min`],
  },
  'resourceModels first min not 0': {
    reason: 'models-standardised',
    oracle: [],
    library: [
      `spec.resourceModels[0].ranges[0].min: Invalid value: "1": must be 0 in the first model (ranges start at 0)`,
    ],
  },
  'resourceModels last max not MaxInt64': {
    reason: 'models-standardised',
    oracle: [],
    library: [
      `spec.resourceModels[0].ranges[0].max: Invalid value: "2": must be 9223372036854775807 (MaxInt64) in the last model`,
    ],
  },
  'resourceModels resources differ between grades': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":1,"Ranges":[{"Name":"cpu","Min":"0","Max":"2"}]},{"Grade":2,"Ranges":[{"Name":"memory","Min":"2","Max":"9223372036854775807"}]}]: The resource types of each models should be the same`,
    ],
    library: [
      `spec.resourceModels[1].ranges[0].name: Invalid value: "memory": must be "cpu", as in grade 1: every model lists the same resources in the same order`,
    ],
  },
  'resourceModels not contiguous': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":1,"Ranges":[{"Name":"cpu","Min":"0","Max":"2"}]},{"Grade":2,"Ranges":[{"Name":"cpu","Min":"1","Max":"9223372036854…`,
    ],
    library: [
      `spec.resourceModels[1].ranges[0].min: Invalid value: "1": must equal the max of cpu in grade 1 (2): ranges must be contiguous and non-overlapping`,
    ],
  },
  'resourceModels overlapping ranges': {
    reason: 'models-at-range',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":0,"Ranges":[{"Name":"cpu","Min":"0","Max":"4"}]},{"Grade":1,"Ranges":[{"Name":"cpu","Min":"2","Max":"8"}]},{"Grade…`,
    ],
    library: [
      `spec.resourceModels[1].ranges[0].min: Invalid value: "2": must equal the max of cpu in grade 0 (4): ranges must be contiguous and non-overlapping`,
    ],
  },
  'resourceModels equal amounts written differently': {
    reason: 'quantity-notation',
    oracle: [
      `spec.resourceModels: Invalid value: [{"Grade":0,"Ranges":[{"Name":"memory","Min":"0","Max":"4Gi"}]},{"Grade":1,"Ranges":[{"Name":"memory","Min":"4294967296","Ma…`,
    ],
    library: [],
  },
  'resourceModels malformed quantity': {
    reason: 'decode-refusal',
    oracle: [
      `refused: decode: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
    library: [
      `spec.resourceModels[0].ranges[0].max: Invalid value: "lots": quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    ],
  },
  'probe httpGet and apiServer': {
    reason: 'apiserver-handler-last',
    oracle: [`spec.livenessProbe.httpGet: Forbidden: may not specify more than 1 handler type`],
    library: [`spec.livenessProbe.apiServer: Forbidden: may not specify more than 1 handler type`],
  },
  'probe exec': {
    reason: 'not-for-clusters',
    oracle: [],
    library: [
      `spec.livenessProbe.exec: Forbidden: unknown field "exec"; check its spelling`,
      `spec.livenessProbe: Required value: must specify a handler type`,
    ],
  },
  'probe second handler invalid too': {
    reason: 'every-handler',
    oracle: [
      `spec.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
      `spec.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`,
    ],
    library: [
      `spec.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
      `spec.livenessProbe.tcpSocket.port: Invalid value: 70000: must be between 1 and 65535, inclusive`,
      `spec.livenessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type`,
    ],
  },
  'probe httpGet path "" port 0': {
    reason: 'absolute-path',
    oracle: [`spec.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`],
    library: [
      `spec.livenessProbe.httpGet.path: Invalid value: "": must start with '/'`,
      `spec.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`,
    ],
  },
  'probe httpGet path "" port ""': {
    reason: 'absolute-path',
    oracle: [
      `spec.livenessProbe.httpGet.port: Invalid value: "": must contain at least one letter (a-z)`,
      `spec.livenessProbe.httpGet.port: Invalid value: "": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
    ],
    library: [
      `spec.livenessProbe.httpGet.path: Invalid value: "": must start with '/'`,
      `spec.livenessProbe.httpGet.port: Invalid value: "": must contain at least one letter (a-z)`,
      `spec.livenessProbe.httpGet.port: Invalid value: "": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)`,
    ],
  },
  'probe httpGet without port': {
    reason: 'present-is-set',
    oracle: [`spec.livenessProbe.httpGet.port: Invalid value: 0: must be between 1 and 65535, inclusive`],
    library: [`spec.livenessProbe.httpGet.port: Required value`],
  },
  'probe grpc port "http"': {
    reason: 'decode-refusal',
    oracle: [
      `refused: decode: json: cannot unmarshal string into Go struct field GRPCAction.spec.containers.livenessProbe.ProbeHandler.grpc.port of type int32`,
    ],
    library: [
      `spec.livenessProbe.grpc.port: Invalid value: "string": spec.livenessProbe.grpc.port in body must be of type integer: "string"`,
    ],
  },
  'probe scheme empty': {
    reason: 'present-is-set',
    oracle: [],
    library: [`spec.livenessProbe.httpGet.scheme: Unsupported value: "": supported values: "HTTP", "HTTPS"`],
  },
  'probe path empty': {
    reason: 'absolute-path',
    oracle: [],
    library: [`spec.livenessProbe.httpGet.path: Invalid value: "": must start with '/'`],
  },
  'probe path without /': {
    reason: 'absolute-path',
    oracle: [],
    library: [`spec.livenessProbe.httpGet.path: Invalid value: "healthz": must start with '/'`],
  },
  'probe initialDelaySeconds -1': {
    reason: 'crd-minimum',
    oracle: [`spec.livenessProbe.initialDelaySeconds: Invalid value: -1: must be greater than or equal to 0`],
    library: [
      `spec.livenessProbe.initialDelaySeconds: Invalid value: -1: spec.livenessProbe.initialDelaySeconds in body should be greater than or equal to 0`,
    ],
  },
  'probe timeoutSeconds -1': {
    reason: 'crd-minimum',
    oracle: [`spec.livenessProbe.timeoutSeconds: Invalid value: -1: must be greater than or equal to 0`],
    library: [
      `spec.livenessProbe.timeoutSeconds: Invalid value: -1: spec.livenessProbe.timeoutSeconds in body should be greater than or equal to 1`,
    ],
  },
  'probe periodSeconds -1': {
    reason: 'crd-minimum',
    oracle: [`spec.livenessProbe.periodSeconds: Invalid value: -1: must be greater than or equal to 0`],
    library: [
      `spec.livenessProbe.periodSeconds: Invalid value: -1: spec.livenessProbe.periodSeconds in body should be greater than or equal to 1`,
    ],
  },
  'probe successThreshold -1': {
    reason: 'crd-minimum',
    oracle: [
      `spec.livenessProbe.successThreshold: Invalid value: -1: must be 1`,
      `spec.livenessProbe.successThreshold: Invalid value: -1: must be greater than or equal to 0`,
    ],
    library: [
      `spec.livenessProbe.successThreshold: Invalid value: -1: spec.livenessProbe.successThreshold in body should be greater than or equal to 1`,
    ],
  },
  'probe failureThreshold -1': {
    reason: 'crd-minimum',
    oracle: [`spec.livenessProbe.failureThreshold: Invalid value: -1: must be greater than or equal to 0`],
    library: [
      `spec.livenessProbe.failureThreshold: Invalid value: -1: spec.livenessProbe.failureThreshold in body should be greater than or equal to 1`,
    ],
  },
  'probe timeoutSeconds 0': {
    reason: 'present-is-set',
    oracle: [],
    library: [
      `spec.livenessProbe.timeoutSeconds: Invalid value: 0: spec.livenessProbe.timeoutSeconds in body should be greater than or equal to 1`,
    ],
  },
  'probe periodSeconds 0': {
    reason: 'present-is-set',
    oracle: [],
    library: [
      `spec.livenessProbe.periodSeconds: Invalid value: 0: spec.livenessProbe.periodSeconds in body should be greater than or equal to 1`,
    ],
  },
  'probe successThreshold 0': {
    reason: 'present-is-set',
    oracle: [],
    library: [
      `spec.livenessProbe.successThreshold: Invalid value: 0: spec.livenessProbe.successThreshold in body should be greater than or equal to 1`,
    ],
  },
  'probe failureThreshold 0': {
    reason: 'present-is-set',
    oracle: [],
    library: [
      `spec.livenessProbe.failureThreshold: Invalid value: 0: spec.livenessProbe.failureThreshold in body should be greater than or equal to 1`,
    ],
  },
  'probe successThreshold 3': {
    reason: 'success-threshold',
    oracle: [`spec.livenessProbe.successThreshold: Invalid value: 3: must be 1`],
    library: [],
  },
  'probe terminationGracePeriodSeconds 1': {
    reason: 'not-for-clusters',
    oracle: [],
    library: [
      `spec.livenessProbe.terminationGracePeriodSeconds: Forbidden: unknown field "terminationGracePeriodSeconds"; check its spelling`,
    ],
  },
  'probe terminationGracePeriodSeconds 0': {
    reason: 'not-for-clusters',
    oracle: [`spec.livenessProbe.terminationGracePeriodSeconds: Invalid value: 0: must be greater than 0`],
    library: [
      `spec.livenessProbe.terminationGracePeriodSeconds: Forbidden: unknown field "terminationGracePeriodSeconds"; check its spelling`,
    ],
  },
  'probe host with an underscore': {
    reason: 'host-checked',
    oracle: [],
    library: [
      `spec.livenessProbe.httpGet.host: Invalid value: "member_1.example.com": must be a valid IP address or DNS name: a lowercase RFC 1123 subdomain must consist of l…`,
    ],
  },
  'probe host metadata address': {
    reason: 'host-checked',
    oracle: [],
    library: [
      `spec.livenessProbe.httpGet.host: Forbidden: 169.254.169.254 is in the denied address range 169.254.0.0/16; probes may not target it`,
    ],
  },
  'probe host URL': {
    reason: 'host-checked',
    oracle: [],
    library: [
      `spec.livenessProbe.tcpSocket.host: Invalid value: "https://member.example.com": must be a valid IP address or DNS name: a lowercase RFC 1123 subdomain must cons…`,
    ],
  },
};
