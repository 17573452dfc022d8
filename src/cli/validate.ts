// `cluster-probe validate`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('validate')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe validate: not implemented yet\n');
      process.exitCode = 2;
    });
}
