// `cluster-probe certs`: not built yet (see the open issues).
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('certs')
    .description('(not implemented yet)')
    .action(() => {
      process.stderr.write('cluster-probe certs: not implemented yet\n');
      process.exitCode = 2;
    });
}
