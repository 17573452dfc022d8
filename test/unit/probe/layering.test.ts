// The engine's boundary: the probe package imports nothing of the schema library, webhook or reconciler, no Kubernetes
// client and no express (only the schema package's two pure leaves, its `./api` facts and `./address` policy), and
// every module opens with a comment on its job.
import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';

const DIR = new URL('../../../packages/probe/src/', import.meta.url);
const FORBIDDEN = [
  /\.\.\/schema/,
  /\.\.\/webhook/,
  /\.\.\/reconciler/,
  /\.\.\/cli/,
  /@kubernetes\//,
  /['"]express['"]/,
];

describe('probe engine layering', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));

  it('has modules to check', () => {
    expect(files).to.include.members(['prober.ts', 'worker.ts', 'scheduler.ts', 'index.ts']);
  });

  for (const file of files) {
    it(`${file} imports nothing outside the engine but Node and gRPC`, () => {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const imports = [...text.matchAll(/^\s*(?:import|export)[^'"]*from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1] ?? '');
      for (const spec of imports) {
        for (const bad of FORBIDDEN) expect(spec, `${file} imports ${spec}`).not.to.match(bad);
        expect(
          spec.startsWith('./') ||
            spec.startsWith('node:') ||
            spec.startsWith('@grpc/') ||
            spec === '@karmada-cluster-probe/schema/address' ||
            spec === '@karmada-cluster-probe/schema/api',
          `${file} imports ${spec}`,
        ).to.equal(true);
      }
      expect(text.startsWith('//'), `${file} starts with a header comment`).to.equal(true);
    });
  }
});
