// Generates packages/schema/src/schema/generated/validators.ts and defaulting-validators.ts: ajv's standalone code for schemas/, so the
// schema library validates without compiling anything at start-up. Here is the one ajv configuration of the project
// (options, formats, our keywords). Each generated module exports one function that takes packages/schema/src/schema/ajv-runtime.ts
// (the formats and the helpers our keywords call) and returns the validators: the generated code imports nothing.
import { _, Ajv, Name, stringify, type KeywordCxt } from 'ajv';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { codePoints, formats, isIntOrString, listMapKeysUnique } from '../../packages/schema/src/schema/ajv-runtime.js';
import {
  clusterSchema,
  healthCheckerAnnotationSchema,
  livenessProbeSchema,
} from '../../packages/schema/src/schema/schemas.js';

// ajv's standalone module is CommonJS with a default export; under NodeNext the callable sits on `.default`.
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ??
  standaloneCodeModule) as unknown as (ajv: Ajv, refs: Record<string, string>) => string;

/** The generated code's name for ajv-runtime.ts: every value the code needs at run time is reached through it. */
const RUNTIME = 'runtime';

/** A value of ajv-runtime.ts, named in the generated code by its export (`runtime.codePoints`). */
function runtimeFunc(cxt: KeywordCxt, fn: (...args: never[]) => unknown): Name {
  return cxt.gen.scopeValue('func', { ref: fn, code: _`${new Name(RUNTIME)}.${new Name(fn.name)}` });
}

/**
 * The ajv instance the validators are compiled by (`code.source` so they can be written out): allErrors, strict, the
 * apiserver's meaning for the x-kubernetes-* keys, maxLength in code points, and `default`s inserted when asked.
 */
export function buildAjv(useDefaults: boolean): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    useDefaults,
    allowUnionTypes: false,
    messages: false,
    code: { source: true, lines: true, formats: _`${new Name(RUNTIME)}.formats` },
  });
  for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format as never);
  // maxLength counts code points, as kube-apiserver counts runes; ajv's own counts every string character by
  // character, which cost bench/schema more than the rest of the schema. A string is never longer in code points than
  // in UTF-16 units, so only one over the limit in units is counted.
  ajv.removeKeyword('maxLength');
  ajv.addKeyword({
    keyword: 'maxLength',
    type: 'string',
    schemaType: 'number',
    error: { message: 'too long', params: ({ schemaCode }) => _`{limit: ${schemaCode}}` },
    code(cxt: KeywordCxt) {
      const count = runtimeFunc(cxt, codePoints);
      cxt.fail(_`${cxt.data}.length > ${cxt.schemaCode} && ${count}(${cxt.data}) > ${cxt.schemaCode}`);
    },
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema !== true) return;
      cxt.fail(_`!${runtimeFunc(cxt, isIntOrString)}(${cxt.data})`);
    },
  });
  ajv.addKeyword({
    keyword: 'x-kubernetes-list-map-keys',
    type: 'array',
    schemaType: 'array',
    // A list-type map must not hold two items with the same keys (the apiserver reports a Duplicate value).
    code(cxt: KeywordCxt) {
      const keys = cxt.gen.scopeValue('schema', { key: cxt.schema, ref: cxt.schema, code: stringify(cxt.schema) });
      cxt.fail(_`!${runtimeFunc(cxt, listMapKeysUnique)}(${keys}, ${cxt.data})`);
    },
  });
  // Annotations for the apiserver that have no check of their own in ajv: preserve-unknown-fields is ajv's default
  // behaviour without additionalProperties, list-type atomic/set/map only tells server-side apply how to merge, and
  // the CEL rules of x-kubernetes-validations are implemented as code in cluster-rules.ts and probe-rules.ts.
  ajv.addKeyword({ keyword: 'x-kubernetes-preserve-unknown-fields', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'x-kubernetes-list-type', schemaType: 'string' });
  ajv.addKeyword({ keyword: 'x-kubernetes-validations', schemaType: 'array' });
  ajv.addSchema([livenessProbeSchema, healthCheckerAnnotationSchema, clusterSchema] as object[]);
  return ajv;
}

/** The exports of each generated module: its name for a validator, and the $id of the schema it checks. */
export const VALIDATOR_EXPORTS = {
  strict: {
    cluster: 'cluster.schema.json',
    livenessProbe: 'liveness-probe.schema.json',
    healthChecker: 'health-checker-annotation.schema.json',
  },
  defaulting: { livenessProbe: 'liveness-probe.schema.json' },
} as const;

/** A module exporting `validators(runtime)`, which returns ajv's standalone validators (CommonJS-style `exports`). */
function moduleCode(useDefaults: boolean, what: string): string {
  const ajv = buildAjv(useDefaults);
  const code = standaloneCode(ajv, { ...VALIDATOR_EXPORTS[useDefaults ? 'defaulting' : 'strict'] });
  // Everything the code needs comes through `runtime`; a require() would mean a value without our `code` (it would
  // fail in an ES module, and would load ajv at run time).
  if (/\brequire\(/.test(code)) throw new Error('generated validators call require(); give the value a runtime code');
  // "use strict" is the default of an ES module.
  const body = code.replace(/^"use strict";\n/, '');
  return `// Generated from schemas/ by \`npm run generate\` (scripts/generate/validators.ts). Do not edit: change the schema
// or the generator and regenerate. ${what}
// ajv's standalone code: plain JavaScript, not type-checked; packages/schema/src/schema/ajv-validators.ts gives it its types.
// @ts-nocheck

/** The validators by name; \`${RUNTIME}\` is packages/schema/src/schema/ajv-runtime.ts. The code imports nothing. */
export function validators(${RUNTIME}) {
const exports = {};
${body}
return exports;
}
`;
}

export function generateValidators(): string {
  return moduleCode(false, 'The validators, checking only.');
}

export function generateDefaultingValidators(): string {
  return moduleCode(true, "The validators that insert the schema's `default`s into what they check (ajv useDefaults).");
}
