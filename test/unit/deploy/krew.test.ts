// The kubectl plugin's name against krew's naming guide and kubectl's plugin lookup, and the manifest's shape; krew
// itself validates and installs a generated manifest in test/e2e/krew-plugin.test.ts.
import { expect } from 'chai';
import { KREW_BIN, KREW_PLATFORMS, KREW_PLUGIN_NAME, krewArchiveUri, krewManifest } from '../../../src/deploy/krew.js';

describe('kubectl karmada-probe: the krew plugin', () => {
  it('is named in lowercase words joined by hyphens, Karmada first, and kubectl finds it as kubectl-karmada_probe', () => {
    expect(KREW_PLUGIN_NAME).to.match(/^[a-z]+(-[a-z]+)+$/);
    expect(KREW_PLUGIN_NAME.startsWith('karmada-')).to.equal(true);
    expect(KREW_BIN).to.equal('kubectl-karmada_probe');
  });

  it('gives every platform the same archive, its sha256 and the launcher as bin, at the release version', () => {
    const sha256 = 'a'.repeat(64);
    const m = krewManifest({ version: '1.2.3', sha256 }) as {
      metadata: { name: string };
      spec: { version: string; platforms: { uri: string; sha256: string; bin: string; selector: unknown }[] };
    };
    expect(m.metadata.name).to.equal(KREW_PLUGIN_NAME);
    expect(m.spec.version).to.equal('v1.2.3');
    expect(m.spec.platforms).to.have.length(KREW_PLATFORMS.length);
    for (const p of m.spec.platforms) expect(p).to.include({ uri: krewArchiveUri('1.2.3'), sha256, bin: KREW_BIN });
  });
});
