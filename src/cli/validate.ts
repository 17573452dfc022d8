// `cluster-probe validate`: checks Cluster manifests offline with the schema library, as the webhook would.
// Exit 0 all valid, 1 some invalid, 2 unreadable or unparsable input (or a usage error).
import { collectCidr } from './cidr-option.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { probeLocationOption } from './probe-location-option.js';
import {
  DEFAULT_DENY_CIDRS,
  FIELD_VALIDATIONS,
  KIND,
  validateCluster,
  type FieldError,
  type FieldValidation,
  type ProbeLocation,
} from '@karmada-cluster-probe/schema';
import {
  documentLabel,
  expandPaths,
  InputError,
  isKarmadaCluster,
  MAX_INPUT_BYTES,
  MAX_YAML_ALIASES,
  nameOf,
  objectsOf,
  readSource,
} from './documents.js';

export interface ValidateResultJson {
  file: string;
  index: number;
  kind: string;
  name: string;
  valid: boolean;
  errors: { field: string; type: string; value: unknown; detail: string; message: string }[];
  warnings: string[];
}

export interface ValidateRun {
  results: ValidateResultJson[];
  problems: string[];
  skipped: number;
}

export function validateInputs(
  paths: string[],
  options: { probeLocation: ProbeLocation; denyHosts: string[]; fieldValidation?: FieldValidation },
  stdin?: () => string,
): ValidateRun {
  // A path that cannot be read is reported; every other path is still checked.
  const { files, problems } = expandPaths(paths);
  const run: ValidateRun = { results: [], problems, skipped: 0 };
  for (const file of files) {
    let objects;
    try {
      objects = objectsOf(readSource(file, stdin));
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      run.problems.push(err.message);
      continue;
    }
    for (const ref of objects) {
      const obj = ref.value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } };
      const kind = typeof obj === 'object' && obj !== null && typeof obj.kind === 'string' ? obj.kind : '';
      if (kind !== KIND || !isKarmadaCluster(obj)) {
        run.skipped++;
        continue;
      }
      const result = validateCluster(ref.value, options);
      const name = typeof obj.metadata?.name === 'string' ? obj.metadata.name : '';
      run.results.push({
        file: nameOf(file),
        index: ref.index,
        kind,
        name,
        valid: result.valid,
        errors: result.errors.map((e: FieldError) => ({
          field: e.field,
          type: e.type,
          value: e.value ?? null,
          detail: e.detail,
          message: e.message,
        })),
        warnings: result.warnings,
      });
    }
  }
  return run;
}

/** Strict, Warn or Ignore, in any case (kubectl writes them in lower case, the apiserver's parameter capitalised). */
export function parseFieldValidation(value: string): FieldValidation {
  const mode = FIELD_VALIDATIONS.find((m) => m.toLowerCase() === value.toLowerCase());
  if (mode === undefined) throw new InvalidArgumentError(`Allowed choices are ${FIELD_VALIDATIONS.join(', ')}.`);
  return mode;
}

function renderText(run: ValidateRun): string {
  let out = '';
  for (const r of run.results) {
    const where = documentLabel(r.file, r.index);
    if (r.valid) out += `${where}: Cluster "${r.name}" is valid\n`;
    else {
      out += `${where}: Cluster ${JSON.stringify(r.name)} is invalid:\n`;
      for (const e of r.errors) out += `  - ${e.message}\n`;
    }
    for (const w of r.warnings) out += `  warning: ${w}\n`;
  }
  return out;
}

export function register(program: Command): void {
  program
    .command('validate')
    .description('Validate Cluster manifests (files, directories or - for stdin) offline, as the webhook would.')
    .argument('<paths...>', 'YAML or JSON files, directories (searched for .yaml/.yml/.json), or - for stdin')
    .addOption(new Option('-o, --output <format>', 'output format').choices(['text', 'json']).default('text'))
    .addOption(probeLocationOption('where this installation keeps the probe'))
    .addOption(
      new Option(
        '--field-validation <mode>',
        'a field no Cluster has (a typo such as spec.livenessprobe): Strict an error, as kubectl apply does by default; Warn a warning, as the apiserver does when the client asks nothing; Ignore nothing',
      )
        .argParser(parseFieldValidation)
        .default('Strict'),
    )
    .option(
      '--deny-cidr <cidr>',
      `address range probe hosts may not target; repeatable, replaces the default (${DEFAULT_DENY_CIDRS.join(', ')})`,
      collectCidr,
    )
    .addHelpText(
      'after',
      `
Exit status: 0 all Clusters valid, 1 some invalid, 2 unreadable or unparsable input.
Each unreadable input is named and every other file still checked. Documents of other kinds, and Clusters of
another API group, are skipped; kind: List is expanded and YAML merge keys (<<) applied, as kubectl does.
Refused by name: a FIFO or device inside a directory (one named on the command line is read like stdin), a file
over ${MAX_INPUT_BYTES / 2 ** 20} MiB, text that is not UTF-8, more than ${MAX_YAML_ALIASES} nodes through YAML aliases.

Examples:
  cluster-probe validate clusters/
  kubectl get clusters -o yaml | cluster-probe validate -o json -
  kubectl get clusters -o yaml | cluster-probe validate --field-validation Warn -   # a newer Karmada's fields warn`,
    )
    .action(
      (
        paths: string[],
        opts: {
          output: 'text' | 'json';
          probeLocation: ProbeLocation;
          denyCidr?: string[];
          fieldValidation: FieldValidation;
        },
      ) => {
        const run = validateInputs(paths, {
          probeLocation: opts.probeLocation,
          denyHosts: opts.denyCidr ?? [...DEFAULT_DENY_CIDRS],
          fieldValidation: opts.fieldValidation,
        });
        if (opts.output === 'json') process.stdout.write(`${JSON.stringify({ results: run.results }, null, 2)}\n`);
        else process.stdout.write(renderText(run));
        for (const p of run.problems) process.stderr.write(`cluster-probe validate: ${p}\n`);
        const invalid = run.results.filter((r) => !r.valid).length;
        if (opts.output === 'text')
          process.stderr.write(
            `${run.results.length} Cluster${run.results.length === 1 ? '' : 's'} checked: ${run.results.length - invalid} valid, ${invalid} invalid${run.skipped > 0 ? `, ${run.skipped} other document${run.skipped === 1 ? '' : 's'} skipped` : ''}\n`,
          );
        process.exitCode = run.problems.length > 0 ? 2 : invalid > 0 ? 1 : 0;
      },
    );
}
