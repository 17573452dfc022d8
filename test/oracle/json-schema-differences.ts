// The one list of rows on which the generated JSON Schemas (schemas/json/, through kubeconform and through ajv) and
// validateCluster give different verdicts: rules JSON Schema cannot express as keywords, each with why. On every row
// listed here the library refuses and both kubeconform and ajv accept; on every other row all three agree. A listed
// row that stops differing fails (remove it); docs/validation.md ("JSON Schemas for kubeconform and editors") renders
// this table, and test/oracle/json-schema.test.ts checks that it names every reason and row.

export const INEXPRESSIBLE = {
  'go-url-parse': {
    rule: 'spec.apiEndpoint and spec.proxyURL parse as Go url.Parse parses them',
    why: "a pattern gives the URL's shape (a scheme, `://`, a host, no user information, query or fragment; proxyURL's scheme); the port's range and spelling and IPv6 brackets are Go's parser, which a regular expression would only imitate",
  },
  'unique-by-fields': {
    rule: 'taints are unique by key and effect, resource models by grade',
    why: '`uniqueItems` compares whole items; JSON Schema cannot say "unique by these fields"',
  },
  'resource-model-ranges': {
    rule: "resource models' ranges: the same resources in every grade, max above min, contiguous from 0 to MaxInt64",
    why: 'these compare quantities across ranges and grades (and quantities in any notation: 4Gi equals 4294967296); JSON Schema compares a value with constants only',
  },
  'deny-list': {
    rule: 'a probe host that is a literal IP in the deny list (169.254.0.0/16 and the other defaults, or `--deny-cidr`)',
    why: 'the deny list is configured per installation and covers every spelling of an address (IPv4-mapped IPv6, shortened forms); a fixed pattern would be wrong for any other list',
  },
} as const;

export type InexpressibleRule = keyof typeof INEXPRESSIBLE;

/** Row name (as json-schema-judge.ts names it, `<table>: <row>`) to the rule the JSON Schemas cannot say. */
export const JSON_SCHEMA_DIFFERENCES: Readonly<Record<string, InexpressibleRule>> = {
  'oracle: apiEndpoint "https://member.example.com:99999"': 'go-url-parse',
  'oracle: apiEndpoint "https://member.example.com:http"': 'go-url-parse',
  'oracle: apiEndpoint "https://[fd00::1:6443"': 'go-url-parse',
  'oracle: proxyURL "http://proxy:port"': 'go-url-parse',
  'oracle: taints duplicate key and effect': 'unique-by-fields',
  'oracle: taints duplicate with an empty value': 'unique-by-fields',
  'oracle: taints three with the same key': 'unique-by-fields',
  'oracle: resourceModels same grade': 'unique-by-fields',
  'oracle: resourceModels different numbers of resources': 'resource-model-ranges',
  'oracle: resourceModels max below min': 'resource-model-ranges',
  'oracle: resourceModels max equals min': 'resource-model-ranges',
  'oracle: resourceModels first min not 0': 'resource-model-ranges',
  'oracle: resourceModels last max not MaxInt64': 'resource-model-ranges',
  'oracle: resourceModels resources differ between grades': 'resource-model-ranges',
  'oracle: resourceModels not contiguous': 'resource-model-ranges',
  'oracle: resourceModels overlapping ranges': 'resource-model-ranges',
  'oracle: probe host metadata address': 'deny-list',
};
