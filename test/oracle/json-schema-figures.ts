// `npx tsx test/oracle/json-schema-figures.ts`: the agreement figures of docs/validation.md ("JSON Schemas for
// kubeconform and editors"), before and after, from the functions json-schema.test.ts uses. Before is the source
// schema a tool author found, schemas/cluster.schema.json ($ref to its sibling, x-kubernetes-* and CEL), through
// kubeconform and through ajv non-strict (strict mode cannot compile it); after is the generated schemas/json/ file
// through kubeconform and through ajv in strict mode.
import { JSON_SCHEMA_FILES, KUBECONFORM_SCHEMA_LOCATIONS } from '../../scripts/generate/json-schemas.js';
import { JSON_SCHEMA_DIFFERENCES } from './json-schema-differences.js';
import {
  ajvVerdicts,
  jsonSchemaRows,
  kubeconformBinary,
  kubeconformVerdicts,
  libraryVerdicts,
  readJson,
  type ToolVerdict,
} from './json-schema-judge.js';

const rows = jsonSchemaRows();
const library = libraryVerdicts(rows);
const binary = kubeconformBinary();

function figures(label: string, verdicts: Map<string, ToolVerdict>): string {
  let agree = 0;
  let listed = 0;
  let other = 0;
  let refused = 0;
  for (const r of rows) {
    const v = verdicts.get(r.name)?.verdict;
    if (v === 'reject') refused++;
    if (v === library.get(r.name)) agree++;
    else if (JSON_SCHEMA_DIFFERENCES[r.name] !== undefined) listed++;
    else other++;
  }
  return `| ${label} | ${rows.length} | ${refused} | ${agree} | ${listed} | ${other} |`;
}

const libraryRefused = [...library.values()].filter((v) => v === 'reject').length;
console.log(`validateCluster refuses ${libraryRefused} of ${rows.length} rows\n`);
console.log('| judge | rows | refused | agree with validateCluster | listed differences | unlisted differences |');
console.log('| --- | --- | --- | --- | --- | --- |');
console.log(
  figures(
    'before: kubeconform -strict, schemas/cluster.schema.json',
    kubeconformVerdicts(binary, rows, ['-strict', '-schema-location', 'schemas/cluster.schema.json']),
  ),
);
console.log(
  figures(
    'before: ajv (strict: false), schemas/cluster.schema.json',
    ajvVerdicts(rows, readJson('schemas/cluster.schema.json'), { strict: false }, [
      readJson('schemas/liveness-probe.schema.json'),
    ]),
  ),
);
console.log(
  figures(
    `after: kubeconform -strict, ${JSON_SCHEMA_FILES.catalog}`,
    kubeconformVerdicts(binary, rows, ['-strict', '-schema-location', KUBECONFORM_SCHEMA_LOCATIONS.catalog]),
  ),
);
console.log(
  figures(
    `after: ajv (strict: true), ${JSON_SCHEMA_FILES.catalog}`,
    ajvVerdicts(rows, readJson(JSON_SCHEMA_FILES.catalog), { strict: true }),
  ),
);
