// The `cluster-probe` command line: one command a file in src/cli, wired here with commander.
// Each command module exports `register(program)`; actions report their outcome through process.exitCode.
// A command module imports statically only what its flags and help need; its action imports the modules that do the
// work (the webhook's server, the Kubernetes client, the probe engine, the playground), and only the command named on
// the command line is loaded at all, so `--help` and a `validate` of one file load none of the others' work
// (test/integration/cli/startup-imports.test.ts, bench/startup).
import { Command, CommanderError } from 'commander';
import { messageOf } from '@karmada-cluster-probe/schema/api';

type CommandModule = { register: (program: Command) => void };

/** Every command, in the order `--help` lists them, and the module that registers it. */
const COMMANDS: readonly (readonly [string, () => Promise<CommandModule>])[] = [
  ['validate', () => import('./validate.js')],
  ['migrate', () => import('./migrate.js')],
  ['serve', () => import('./serve.js')],
  ['certs', () => import('./certs.js')],
  ['manifests', () => import('./manifests.js')],
  ['probe', () => import('./probe.js')],
  ['reconcile', () => import('./reconcile.js')],
  ['status', () => import('./status.js')],
  ['dev', () => import('./dev.js')],
];

/**
 * The program, with the command `argv` (node's form: the command at index 2) names registered, or every command when
 * it names none (no command, `--help`, `help`, a typo): running a command, or its `--help`, needs no other, and the
 * listing and commander's suggestions come from all of them.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('cluster-probe')
    .description(
      'A real liveness probe for Karmada member clusters: validate, migrate, serve the webhook, probe, reconcile.',
    )
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText(
      'after',
      `
Examples:
  $ cluster-probe validate clusters/                      # the rules the webhook applies, offline, before kubectl apply
  $ cluster-probe migrate --write clusters/               # move the legacy health-checker annotation into the probe
  $ cluster-probe dev up --karmada                        # a real Karmada on 127.0.0.1 with two members
  $ cluster-probe <command> --help                        # every command has its own examples`,
    )
    .exitOverride();
  const named = COMMANDS.filter(([name]) => name === argv[2]);
  const modules = await Promise.all((named.length > 0 ? named : COMMANDS).map(([, load]) => load()));
  for (const module of modules) module.register(program);
  return program;
}

/**
 * A reader that went away (`cluster-probe validate dir/ | head -1`) ends the output, as SIGPIPE ends a C program: no
 * stack trace, and the exit status the command had decided.
 */
function quietOnClosedPipe(): void {
  for (const stream of [process.stdout, process.stderr])
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE') throw err;
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    });
}

/** Runs the CLI and resolves to the process exit code (2 for usage errors, as for unreadable input). */
export async function run(argv: string[]): Promise<number> {
  quietOnClosedPipe();
  const program = await buildProgram(argv);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.code === 'commander.help')
        return 0;
      return 2;
    }
    process.stderr.write(`cluster-probe: ${messageOf(err)}\n`);
    return 2;
  }
  return typeof process.exitCode === 'number' ? process.exitCode : 0;
}
