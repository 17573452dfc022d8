// The license, one fact with its home at the root: LICENSE is the Apache License 2.0 as apache.org publishes it
// (LICENSE-2.0.txt, byte for byte), every package.json says so, and each workspace package carries a committed copy
// (npm packs a package's own directory only, and `npm pack --ignore-scripts` runs no script that could copy it), which
// this test holds byte-identical to the root's. test/integration/package/schema-package.test.ts checks that the
// tarballs ship it.
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const repo = process.cwd();
/** sha256 of https://www.apache.org/licenses/LICENSE-2.0.txt (11,358 bytes). */
const APACHE_2_0_SHA256 = 'cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30';

const workspaces = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;
const licenseOf = (dir: string): string =>
  (JSON.parse(readFileSync(join(repo, dir, 'package.json'), 'utf8')) as { license?: string }).license ?? '';

describe('LICENSE', () => {
  const rootLicense = (): Buffer => readFileSync(join(repo, 'LICENSE'));

  it('is the Apache License 2.0 verbatim, as every package.json declares', () => {
    const root = rootLicense();
    const text = root.toString('utf8');
    expect(text).to.match(/^\s*Apache License\s+Version 2\.0, January 2004\s/);
    expect(text).to.contain('END OF TERMS AND CONDITIONS');
    expect(createHash('sha256').update(root).digest('hex')).to.equal(APACHE_2_0_SHA256);
    for (const dir of ['.', ...workspaces]) expect(licenseOf(dir), dir).to.equal('Apache-2.0');
  });

  it('has a byte-identical copy in each workspace package', () => {
    expect(workspaces).to.have.members(['packages/schema', 'packages/probe']);
    const root = rootLicense();
    for (const ws of workspaces) {
      const copy = readFileSync(join(repo, ws, 'LICENSE'));
      expect(copy.equals(root), `${ws}/LICENSE differs from LICENSE: copy the root's (cp LICENSE ${ws}/)`).to.equal(
        true,
      );
    }
  });
});
