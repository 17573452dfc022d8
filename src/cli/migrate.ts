// `cluster-probe migrate`: moves the legacy health-checker annotation (and a probe in the other location) into the
// probe location, in every Cluster of the files (List items too), changing nothing else: the YAML is edited node by
// node, then only the lines the edit changed are carried onto the file's own text (line-merge.ts), so comments, key
// order, spacing, other documents, JSON-ness, indentation and line endings stay as written; `--write` replaces the
// file atomically with its mode, owner and symlink kept (file-replace.ts).
// Exit 0 done (or nothing to do), 1 some Cluster cannot be migrated or some file cannot be written (each left
// untouched, the others done), 2 unreadable or unparsable input.
// --in-cluster's Kubernetes client (src/kube) is loaded only for --in-cluster: migrating files never needs it.
import { isDeepStrictEqual } from 'node:util';
import { Command } from 'commander';
import { AUTO, probeLocationOptionWithAuto, type ProbeLocationChoice } from './probe-location-option.js';
import { parseAllDocuments, type Document } from 'yaml';
import {
  defaultCluster,
  diffPatch,
  KIND,
  migrateCluster,
  PROBE_ANNOTATION,
  type JsonPatchOperation,
  type ProbeLocation,
} from '@karmada-cluster-probe/schema';
import {
  documentLabel,
  documentValue,
  expandPaths,
  InputError,
  isKarmadaCluster,
  nameOf,
  objectsOf,
  parseSource,
  readSource,
  YAML_PARSE_OPTIONS,
  type SourceFile,
} from './documents.js';
import { FileReplaceError, replaceFile } from './file-replace.js';
import { changedPlainScalar, plainScalarsOf } from './value-check.js';
import { unescapePointerToken } from '@karmada-cluster-probe/schema/internal/schema/diff.js';
import { mergeEdit } from './line-merge.js';
import { detectStyle, inStyle, type SourceStyle } from './source-style.js';
import { applyToDocument, type NodePath } from './yaml-patch.js';
import { messageOf } from '@karmada-cluster-probe/schema/api';

export interface MigrateOutcome {
  text: string;
  changed: boolean;
  /** Migration warnings and notes (a moved comment), each naming the file and the Cluster. */
  warnings: string[];
  errors: string[];
}

const PROBE_PATH: Record<ProbeLocation, NodePath> = {
  field: ['spec', 'livenessProbe'],
  annotation: ['metadata', 'annotations', PROBE_ANNOTATION],
};

/** The documents as yaml (or JSON.stringify, for a JSON file) writes them in the file's style, '\n'-terminated. */
function render(documents: readonly Document.Parsed[], style: SourceStyle): string {
  if (style.json !== undefined) return `${JSON.stringify(documents[0]?.toJS(), null, style.json.indent)}\n`;
  const { indent, indentSeq, flowCollectionPadding } = style.yaml;
  let out = '';
  documents.forEach((doc, i) => {
    const text = doc.toString({ lineWidth: 0, indent, indentSeq, flowCollectionPadding });
    // A later document needs a marker unless the one before ended with '...'.
    if (i > 0 && !/^(---|%)/.test(text) && !out.endsWith('...\n')) out += '---\n';
    out += text;
  });
  return out;
}

/** Does `text` hold exactly the values `documents` hold (the check that a merge kept the meaning of the edit)? */
function holds(text: string, documents: readonly Document.Parsed[], style: SourceStyle): boolean {
  try {
    const want = documents.map((d, i) => documentValue('', d, i));
    if (style.json !== undefined) return isDeepStrictEqual([JSON.parse(text)], want);
    const got = parseAllDocuments(text, YAML_PARSE_OPTIONS);
    return (
      Array.isArray(got) &&
      got.every((d) => d.errors.length === 0) &&
      isDeepStrictEqual(
        got.map((d, i) => documentValue('', d, i)),
        want,
      )
    );
  } catch {
    return false;
  }
}

/** Per document, the paths each edit's patch touches (under a List item's prefix), as arrays of strings. */
function editedPaths(edits: readonly PlannedEdit[]): Map<number, string[][]> {
  const out = new Map<number, string[][]>();
  for (const edit of edits) {
    const paths = out.get(edit.index) ?? [];
    for (const op of edit.patch) paths.push([...edit.prefix, ...op.path.split('/').slice(1).map(unescapePointerToken)]);
    out.set(edit.index, paths);
  }
  return out;
}

interface PlannedEdit {
  /** The document's index in its file. */
  index: number;
  doc: Document.Parsed;
  prefix: string[];
  patch: JsonPatchOperation[];
  label: string;
  warnings: string[];
}

export function migrateSource(
  source: SourceFile,
  options: { probeLocation: ProbeLocation; defaults: boolean },
): MigrateOutcome {
  const outcome: MigrateOutcome = { text: source.text, changed: false, warnings: [], errors: [] };
  const name = nameOf(source.path);
  const edits: PlannedEdit[] = [];
  for (const ref of objectsOf(source)) {
    const value = ref.value as { apiVersion?: unknown; kind?: unknown; metadata?: { name?: unknown } } | null;
    if (value === null || typeof value !== 'object' || value.kind !== KIND || !isKarmadaCluster(value)) continue;
    const label = `${documentLabel(source.path, ref.index)}: Cluster ${JSON.stringify(value.metadata?.name ?? '')}`;
    const result = migrateCluster(value, { probeLocation: options.probeLocation });
    if (result.errors.length > 0) {
      outcome.errors.push(`${label} cannot be migrated:`, ...result.errors.map((e) => `  - ${e.message}`));
      continue;
    }
    const patch = options.defaults ? diffPatch(value, defaultCluster(result.object)) : result.patch;
    if (patch.length === 0) continue;
    const doc = source.documents[ref.index] as Document.Parsed;
    const prefix = ref.item === undefined ? [] : ['items', String(ref.item)];
    edits.push({ index: ref.index, doc, prefix, patch, label, warnings: result.warnings });
  }
  if (edits.length === 0) return outcome;

  const style = detectStyle(source.text);
  // The sequence indentation read from the file is a guess (yaml indents sequences by a whole step or not at all);
  // render both ways before the edit and keep the first that merges.
  const styles: SourceStyle[] =
    style.json === undefined
      ? [style, { ...style, yaml: { ...style.yaml, indentSeq: !style.yaml.indentSeq } }]
      : [style];
  const befores = styles.map((s) => render(source.documents, s));
  // What every value outside the edit was written as, taken before the edit changes the documents.
  const original = plainScalarsOf(source.documents);
  const touched = editedPaths(edits);
  for (const edit of edits) {
    const target = PROBE_PATH[options.probeLocation];
    const done = applyToDocument(edit.doc, edit.patch, { prefix: edit.prefix, commentTarget: target });
    outcome.warnings.push(...edit.warnings.map((w) => `${edit.label}: ${w}`));
    if (done.comments.length > 0) {
      const what = `the comment${done.comments.length === 1 ? '' : 's'} on the removed ${done.removed.join(', ')}`;
      outcome.warnings.push(
        done.movedTo !== undefined
          ? `${edit.label}: moved ${what} to ${done.movedTo}`
          : `${edit.label}: dropped ${what}, put back by hand if still wanted: ${done.comments.map((c) => `#${c.replace(/\n/g, '\n#')}`).join('\n')}`,
      );
    }
  }
  const body = style.bom ? source.text.slice(1) : source.text;
  let merged: string | undefined;
  /** The first plain scalar outside the edit that `text` (without a BOM) writes differently, if any. */
  const rewrites = (text: string) => changedPlainScalar(original, parseSource(source.path, text).documents, touched);
  for (const [i, s] of styles.entries()) {
    merged = mergeEdit(body, befores[i] as string, render(source.documents, s), style.eol);
    if (merged !== undefined && holds(merged, source.documents, style) && rewrites(merged) === undefined) break;
    merged = undefined;
  }
  if (merged !== undefined) outcome.text = `${style.bom ? '\uFEFF' : ''}${merged}`;
  else {
    const text = inStyle(render(source.documents, style), style);
    // A re-render writes values as yaml read them: refuse the file rather than round a number in it.
    const changed = rewrites(style.bom ? text.slice(1) : text);
    if (changed !== undefined) {
      outcome.errors.push(
        `${documentLabel(source.path, changed.document)}: cannot be migrated without rewriting other values: the change and the file's own formatting ` +
          `touch the same lines, and re-rendered, ${JSON.parse(changed.path).join('.') || '(the document)'} would be ` +
          `written as ${changed.now ?? '(nothing)'} instead of ${changed.was}; move the annotation into the probe by hand`,
      );
      return outcome;
    }
    outcome.text = text;
    if (inStyle(befores[0] as string, style) !== source.text)
      outcome.warnings.push(
        `${name}: note: the change and the file's own formatting touch the same lines, so the whole file is ` +
          `re-rendered: its spacing and quoting may change (every value was checked to be written as before)`,
      );
  }
  outcome.changed = outcome.text !== source.text;
  return outcome;
}

interface RunOptions {
  write: boolean;
  probeLocation: ProbeLocation;
  defaults: boolean;
}

/** Migrates every file, going on after a failure; returns the exit status. */
export function runMigrate(paths: readonly string[], options: RunOptions): number {
  const say = (line: string): boolean => process.stderr.write(`${line}\n`);
  let exit = 0;
  const { files, problems } = expandPaths(paths);
  for (const problem of problems) {
    say(`cluster-probe migrate: ${problem}`);
    exit = 2;
  }
  const failed: string[] = [];
  for (const file of files) {
    let source: SourceFile;
    try {
      source = readSource(file);
    } catch (err) {
      if (!(err instanceof InputError)) throw err;
      say(`cluster-probe migrate: ${err.message}`);
      exit = 2;
      continue;
    }
    let outcome: MigrateOutcome;
    try {
      outcome = migrateSource(source, { probeLocation: options.probeLocation, defaults: options.defaults });
    } catch (err) {
      if (err instanceof InputError) {
        say(`cluster-probe migrate: ${err.message}`);
        exit = 2;
        if (options.write && file !== '-') failed.push(file);
        continue;
      }
      // A defect here must not cost the user the other files.
      say(`cluster-probe migrate: ${file}: cannot be migrated: ${messageOf(err)}`);
      exit = Math.max(exit, 1);
      failed.push(file);
      continue;
    }
    for (const w of outcome.warnings) say(w);
    for (const e of outcome.errors) say(e);
    if (outcome.errors.length > 0) exit = Math.max(exit, 1);
    if (options.write && file !== '-') {
      if (outcome.errors.length > 0) {
        failed.push(file); // never write a half-migrated file
        continue;
      }
      if (!outcome.changed) continue;
      try {
        const { target } = replaceFile(file, outcome.text);
        say(`${file}: migrated${target === file ? '' : ` (written through the symlink to ${target})`}`);
      } catch (err) {
        if (!(err instanceof FileReplaceError)) throw err;
        say(`cluster-probe migrate: ${err.message}`);
        exit = Math.max(exit, 1);
        failed.push(file);
      }
    } else {
      if (files.length > 1) process.stdout.write(`# Source: ${file}\n`);
      process.stdout.write(outcome.text.endsWith('\n') ? outcome.text : `${outcome.text}\n`);
    }
  }
  if (failed.length > 0)
    say(
      `cluster-probe migrate: ${failed.length} of ${files.length} file${files.length === 1 ? '' : 's'} left untouched: ${failed.join(', ')}`,
    );
  return exit;
}

interface MigrateFlags {
  write?: boolean;
  probeLocation?: ProbeLocationChoice;
  defaults?: boolean;
  inCluster?: boolean;
  kubeconfig?: string;
  dryRun?: boolean;
  continueOnError?: boolean;
  backup?: string;
  restore?: string;
}

const sayError = (line: string) => process.stderr.write(`cluster-probe migrate: ${line}\n`);

/** The client for --kubeconfig, or undefined after saying why not. */
async function clientFor(kubeconfig: string | undefined) {
  const { KubeClient, loadKubeConfig } = await import('../kube/index.js');
  try {
    const kc = loadKubeConfig(kubeconfig);
    return { api: new KubeClient(kc), server: kc.getCurrentCluster()?.server };
  } catch (err) {
    sayError(`cannot load the kubeconfig${kubeconfig ? ` ${kubeconfig}` : ''}: ${messageOf(err)}`);
    return undefined;
  }
}

async function runInCluster(paths: readonly string[], opts: MigrateFlags): Promise<number> {
  if (paths.length > 0 || opts.write || opts.defaults) {
    sayError('--in-cluster takes no files, --write or --defaults (the live objects are patched; the webhook defaults)');
    return 2;
  }
  const [client, { runMigrateInCluster }] = await Promise.all([
    clientFor(opts.kubeconfig),
    import('./migrate-in-cluster.js'),
  ]);
  if (client === undefined) return 2;
  return runMigrateInCluster(client.api, {
    probeLocation: opts.probeLocation ?? AUTO,
    dryRun: opts.dryRun === true,
    continueOnError: opts.continueOnError === true,
    ...(opts.backup !== undefined ? { backup: opts.backup } : {}),
    ...(client.server !== undefined ? { server: client.server } : {}),
    out: (line) => process.stdout.write(`${line}\n`),
    note: sayError,
  });
}

async function runRestore(paths: readonly string[], opts: MigrateFlags, file: string): Promise<number> {
  if (paths.length > 0 || opts.write || opts.defaults || opts.inCluster || opts.dryRun || opts.backup !== undefined) {
    sayError('--restore takes only the backup file and --kubeconfig');
    return 2;
  }
  const { readBackup, restoreBackup, BackupError } = await import('./migrate-backup.js');
  let backup;
  try {
    backup = readBackup(file);
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    sayError(err.message);
    return 2;
  }
  const client = await clientFor(opts.kubeconfig);
  if (client === undefined) return 2;
  if (backup.server !== undefined && client.server !== undefined && backup.server !== client.server)
    sayError(`note: the backup was taken from ${backup.server}; restoring to ${client.server}`);
  const summary = await restoreBackup(client.api, backup, file, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(
    `${summary.clusters} Cluster${summary.clusters === 1 ? '' : 's'}: ${summary.restored} restored, ${summary.failed} failed\n`,
  );
  return summary.failed > 0 ? 1 : 0;
}

export function register(program: Command): void {
  program
    .command('migrate')
    .description(
      'Move the legacy cluster.karmada.io/health-checker annotation into the liveness probe, keeping everything else.',
    )
    .argument('[files...]', 'YAML or JSON files, directories, or - for stdin (not with --in-cluster)')
    .option('-w, --write', 'rewrite the files in place instead of printing the result')
    .option(
      '--in-cluster',
      'migrate the live Clusters of the control plane of --kubeconfig instead of files (on stock Karmada no webhook ' +
        'does it); the probe goes where the apiserver can store it',
    )
    .option(
      '--kubeconfig <path>',
      'with --in-cluster or --restore: the kubeconfig of karmada-apiserver (default: KUBECONFIG, ~/.kube/config)',
    )
    .option(
      '--dry-run',
      'with --in-cluster: show what the apiserver would store for each change (dryRun=All), store none',
    )
    .addOption(
      probeLocationOptionWithAuto(
        'where the probe goes (default: auto with --in-cluster: the field where the apiserver stores it, else the ' +
          'annotation; field for files)',
      ),
    )
    .option(
      '--continue-on-error',
      'with --in-cluster: write the Clusters whose dry run passed even when another would not be stored as migrated',
    )
    .option(
      '--backup <file>',
      'with --in-cluster: where to write what was read before any change (default: ' +
        '$XDG_STATE_HOME/karmada-cluster-probe/migrate-<time>.json, or under ~/.local/state)',
    )
    .option('--restore <file>', 'put back what a migrate --in-cluster backup holds, on Clusters not changed since')
    .option('--defaults', 'also fill in the probe defaults (the webhook does this on apply)')
    .addHelpText(
      'after',
      `
The annotation is removed only when the probe carries all of it. An annotation that is not valid JSON, has unknown
keys, or disagrees with a probe that is already set is reported and its file left untouched. Clusters inside a
kind: List (or *List) are migrated in place; other documents and items are kept byte for byte.

Only the changed lines change: a JSON file stays JSON with its indentation, CRLF stays CRLF, a comment on the removed
annotation moves above the probe (said on stderr). When the change shares lines with the file's own formatting, the
whole file is re-rendered (said on stderr), and every value outside the change must come back as written: a number
yaml would round (MaxInt64, 12345678901234567890) refuses the file, left as it was. --write replaces each file atomically (a temporary file in its
directory, then rename), keeping its mode and owner; a symlink is written through to its target and stays a link.
A read-only file, one in a directory that is not writable, or one with several hard links is refused by name; the
other files are still migrated.

Exit status: 0 done (or nothing to do), 1 some Cluster cannot be migrated or some file cannot be written (each left
untouched, the others done), 2 unreadable or unparsable input.

--in-cluster first asks the apiserver where a probe can be stored (the OpenAPI of Cluster, the APIService
v1alpha1.cluster.karmada.io): karmada-aggregated-apiserver drops spec.livenessProbe while answering 200, so there
--probe-location auto (the default) takes the annotation cluster.karmada.io/liveness-probe and --probe-location
field is refused before anything is written; where discovery is forbidden auto takes the annotation, and says so.
Each Cluster is read, migrated exactly as the files are, and turned into one JSON Patch that first tests the
resourceVersion it read. That patch is sent with dryRun=All first: a Cluster whose answer is not what the migration
means to store (the probe dropped, a value changed) is not written and counts as failed, and if any Cluster fails
so, none is written unless --continue-on-error. Then what was read is saved to the backup file (mode 0600, path
printed; a backup that cannot be written stops the run), the patch is sent for real, the answer is compared again,
and the resourceVersion of the write is recorded in the backup. A Cluster written by someone else in between is
read again (3 attempts), never overwritten. Only the probe and the legacy annotation change. Exit 0 done, 1 some
Cluster failed, 2 refused before any write (a location the apiserver cannot store, no backup, no apiserver).

--restore FILE puts back the annotations and fields the backup holds, each Cluster with the resourceVersion of the
migration's write as its precondition: a Cluster changed since is reported and left alone. Exit 0 all restored,
1 some not, 2 the file is not a backup (or larger than 64 MiB).

Examples:
  cluster-probe migrate member.yaml                 # print the migrated YAML
  cluster-probe migrate --in-cluster --kubeconfig karmada.config --dry-run
  cluster-probe migrate --in-cluster --kubeconfig karmada.config
  cluster-probe migrate --in-cluster --kubeconfig karmada.config --backup before-migrate.json
  cluster-probe migrate --restore before-migrate.json --kubeconfig karmada.config
  cluster-probe migrate --write clusters/           # rewrite every Cluster file in place
  cluster-probe migrate --probe-location annotation member.yaml`,
    )
    .action(async (paths: string[], opts: MigrateFlags) => {
      if (opts.restore !== undefined) {
        process.exitCode = await runRestore(paths, opts, opts.restore);
        return;
      }
      if (opts.inCluster) {
        process.exitCode = await runInCluster(paths, opts);
        return;
      }
      if (opts.dryRun || opts.kubeconfig !== undefined || opts.continueOnError || opts.backup !== undefined) {
        process.stderr.write(
          'cluster-probe migrate: --dry-run, --kubeconfig, --continue-on-error and --backup go with --in-cluster\n',
        );
        process.exitCode = 2;
        return;
      }
      if (opts.probeLocation === AUTO) {
        process.stderr.write(
          'cluster-probe migrate: --probe-location auto asks an apiserver (--in-cluster); for files pass field or ' +
            'annotation\n',
        );
        process.exitCode = 2;
        return;
      }
      if (paths.length === 0) {
        process.stderr.write('cluster-probe migrate: name the files to migrate, or use --in-cluster\n');
        process.exitCode = 2;
        return;
      }
      process.exitCode = runMigrate(paths, {
        write: opts.write === true,
        probeLocation: opts.probeLocation ?? 'field',
        defaults: opts.defaults === true,
      });
    });
}
