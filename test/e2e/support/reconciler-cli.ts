// Runs `cluster-probe reconcile` from source with only the reconcile command registered, so the e2e tests exercise the
// real CLI (flags, signals, exit code) without depending on the other commands' modules.
import { Command } from 'commander';
import { register } from '../../../src/cli/reconcile.js';

const program = new Command('cluster-probe');
register(program);
await program.parseAsync(process.argv);
