// `cluster-probe migrate`: moves the legacy health-checker annotation (and a probe in the other location) into the
// probe location, editing the YAML in place of its nodes so that comments, key order and other documents are kept.
// Exit 0 done (or nothing to do), 1 some Cluster cannot be migrated (its file is left untouched), 2 unreadable input.
import { renameSync, writeFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { isMap, type Document } from 'yaml';
import {
  defaultCluster,
  diffPatch,
  KIND,
  migrateCluster,
  MigrationError,
  type JsonPatchOperation,
  type ProbeLocation,
} from '../schema/index.js';
import { expandPaths, InputError, readSource, type SourceFile } from './documents.js';

function pointerToPath(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** Applies a patch to a YAML document node by node, so everything the patch does not touch keeps its comments. */
export function applyToDocument(doc: Document.Parsed, patch: readonly JsonPatchOperation[]): void {
  for (const op of patch) {
    const path = pointerToPath(op.path);
    if (op.op === 'remove') {
      doc.deleteIn(path);
      // An annotations map emptied by the migration goes too, rather than leaving `annotations: {}` behind.
      const parent = path.slice(0, -1);
      const node = doc.getIn(parent, true);
      if (parent.join('/') === 'metadata/annotations' && isMap(node) && node.items.length === 0) doc.deleteIn(parent);
    } else if (op.op === 'add' || op.op === 'replace') {
      doc.setIn(path, doc.createNode(op.value));
    } else throw new Error(`unexpected patch operation ${op.op}`);
  }
}

export interface MigrateOutcome {
  text: string;
  changed: boolean;
  warnings: string[];
  errors: string[];
}

export function migrateSource(
  source: SourceFile,
  options: { probeLocation: ProbeLocation; defaults: boolean },
): MigrateOutcome {
  const outcome: MigrateOutcome = { text: source.text, changed: false, warnings: [], errors: [] };
  const name = source.path === '-' ? '<stdin>' : source.path;
  source.documents.forEach((doc, index) => {
    const value = doc.toJS() as { kind?: unknown; metadata?: { name?: unknown } } | null;
    if (value === null || typeof value !== 'object' || value.kind !== KIND) return;
    const label = `${name}${index > 0 ? `#${index}` : ''}: Cluster ${JSON.stringify(value.metadata?.name ?? '')}`;
    try {
      const result = migrateCluster(value, { probeLocation: options.probeLocation });
      let patch = result.patch;
      if (options.defaults) patch = diffPatch(value, defaultCluster(result.object));
      if (patch.length === 0) return;
      applyToDocument(doc, patch);
      outcome.changed = true;
      outcome.warnings.push(...result.warnings.map((w) => `${label}: ${w}`));
    } catch (err) {
      if (!(err instanceof MigrationError)) throw err;
      outcome.errors.push(`${label} cannot be migrated:`, ...err.errors.map((e) => `  - ${e.message}`));
    }
  });
  if (outcome.changed) outcome.text = source.documents.map((d) => d.toString({ lineWidth: 0 })).join('');
  // A multi-document stream keeps its separators: Document.toString starts each later document with '---' itself
  // only when the source had a marker, so re-join explicitly when needed.
  if (outcome.changed && source.documents.length > 1 && !outcome.text.includes('---'))
    outcome.text = source.documents.map((d) => d.toString({ lineWidth: 0 })).join('---\n');
  return outcome;
}

export function register(program: Command): void {
  program
    .command('migrate')
    .description(
      'Move the legacy cluster.karmada.io/health-checker annotation into the liveness probe, keeping comments.',
    )
    .argument('<files...>', 'YAML or JSON files, directories, or - for stdin')
    .option('-w, --write', 'rewrite the files in place instead of printing the result')
    .addOption(
      new Option('--probe-location <where>', 'where the probe goes').choices(['field', 'annotation']).default('field'),
    )
    .option('--defaults', 'also fill in the probe defaults (the webhook does this on apply)')
    .addHelpText(
      'after',
      `
The annotation is removed only when the probe carries all of it. An annotation that is not valid JSON, has unknown
keys, or disagrees with a probe that is already set is reported and its file left untouched (exit 1).

Examples:
  cluster-probe migrate member.yaml                 # print the migrated YAML
  cluster-probe migrate --write clusters/           # rewrite every Cluster file in place
  cluster-probe migrate --probe-location annotation member.yaml`,
    )
    .action((paths: string[], opts: { write?: boolean; probeLocation: ProbeLocation; defaults?: boolean }) => {
      let exit = 0;
      let files: string[] = [];
      try {
        files = expandPaths(paths);
      } catch (err) {
        process.stderr.write(`cluster-probe migrate: ${(err as Error).message}\n`);
        exit = 2;
      }
      for (const file of files) {
        let source: SourceFile;
        try {
          source = readSource(file);
        } catch (err) {
          if (!(err instanceof InputError)) throw err;
          process.stderr.write(`cluster-probe migrate: ${err.message}\n`);
          exit = 2;
          continue;
        }
        const outcome = migrateSource(source, { probeLocation: opts.probeLocation, defaults: opts.defaults === true });
        for (const w of outcome.warnings) process.stderr.write(`${w}\n`);
        for (const e of outcome.errors) process.stderr.write(`${e}\n`);
        if (outcome.errors.length > 0) {
          exit = Math.max(exit, 1);
          if (opts.write === true) continue; // never write a half-migrated file
        }
        if (opts.write === true && file !== '-') {
          if (outcome.changed) {
            const tmp = `${file}.cluster-probe-${process.pid}.tmp`;
            writeFileSync(tmp, outcome.text);
            renameSync(tmp, file);
            process.stderr.write(`${file}: migrated\n`);
          }
        } else {
          if (files.length > 1) process.stdout.write(`# Source: ${file}\n`);
          process.stdout.write(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
        }
      }
      process.exitCode = exit;
    });
}
