// The `cluster-probe` command line: one command a file in src/cli, wired here with commander.
// Each command module exports `register(program)`; actions report their outcome through process.exitCode.
// A command module imports statically only what its flags and help need; its action imports the modules that do the
// work (the webhook's server, the Kubernetes client, the probe engine, the playground), so `--help` and a `validate`
// of one file load none of them (test/integration/cli/startup-imports.test.ts, bench/startup).
import { Command, CommanderError } from 'commander';
import { register as registerValidate } from './validate.js';
import { register as registerMigrate } from './migrate.js';
import { register as registerServe } from './serve.js';
import { register as registerCerts } from './certs.js';
import { register as registerManifests } from './manifests.js';
import { register as registerProbe } from './probe.js';
import { register as registerReconcile } from './reconcile.js';
import { register as registerDev } from './dev.js';

export function buildProgram(): Command {
  const program = new Command('cluster-probe')
    .description(
      'A real liveness probe for Karmada member clusters: validate, migrate, serve the webhook, probe, reconcile.',
    )
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerValidate(program);
  registerMigrate(program);
  registerServe(program);
  registerCerts(program);
  registerManifests(program);
  registerProbe(program);
  registerReconcile(program);
  registerDev(program);
  return program;
}

/** Runs the CLI and resolves to the process exit code (2 for usage errors, as for unreadable input). */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return 2;
    }
    process.stderr.write(`cluster-probe: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
