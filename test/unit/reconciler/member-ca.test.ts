// Which probes verify TLS as Karmada's own health check does (the secretRef Secret's CA, or
// spec.insecureSkipTLSVerification): HTTPS probes without TLS settings of their own, aimed at exactly the host:port of
// spec.apiEndpoint. Any other host or port keeps the probe as written.
import { expect } from 'chai';
import { memberTrustOf, withMemberTrust } from '../../../src/reconciler/index.js';
import type { Cluster, LivenessProbe } from '../../../packages/schema/src/schema/index.js';

const ref = { namespace: 'karmada-cluster', name: 'member1' };
const spec = (extra: Partial<Cluster['spec']> = {}): Cluster['spec'] => ({
  syncMode: 'Push',
  apiEndpoint: 'https://10.20.0.5:6443',
  secretRef: ref,
  ...extra,
});
const https = (httpGet: Partial<NonNullable<LivenessProbe['httpGet']>> = {}): LivenessProbe => ({
  httpGet: { scheme: 'HTTPS', host: '10.20.0.5', port: 6443, path: '/readyz', ...httpGet },
});

describe("reconciler member trust (the member's CA for probes at spec.apiEndpoint)", () => {
  it('uses the secretRef Secret for an HTTPS probe at the same host:port without a caBundle', () => {
    expect(memberTrustOf(https(), spec())).to.deep.equal({ kind: 'secret', secretRef: ref });
    // host omitted: the host of spec.apiEndpoint
    expect(memberTrustOf(https({ host: undefined }), spec())).to.deep.equal({ kind: 'secret', secretRef: ref });
  });

  it('matches the default port 443, named ports, IPv6 and host names case-insensitively', () => {
    expect(memberTrustOf(https({ port: 443 }), spec({ apiEndpoint: 'https://10.20.0.5' })).kind).to.equal('secret');
    expect(memberTrustOf(https({ port: 'https' }), spec({ apiEndpoint: 'https://10.20.0.5/' })).kind).to.equal(
      'secret',
    );
    expect(
      memberTrustOf(https({ host: '[fd00::5]', port: 6443 }), spec({ apiEndpoint: 'https://[FD00::5]:6443' })).kind,
    ).to.equal('secret');
    expect(
      memberTrustOf(
        https({ host: 'API.member1.example', port: 6443 }),
        spec({ apiEndpoint: 'https://api.member1.example:6443' }),
      ).kind,
    ).to.equal('secret');
  });

  it('never for another host or port', () => {
    expect(memberTrustOf(https({ host: '10.20.0.6' }), spec()).kind).to.equal('none');
    expect(memberTrustOf(https({ port: 8443 }), spec()).kind).to.equal('none');
    expect(memberTrustOf(https({ host: 'health.member1.example' }), spec()).kind).to.equal('none');
  });

  it('never when the probe has TLS settings of its own, is plain HTTP, or is not httpGet', () => {
    expect(memberTrustOf(https({ caBundle: 'Zm9v' }), spec()).kind).to.equal('none');
    expect(memberTrustOf(https({ insecureSkipTLSVerify: true }), spec()).kind).to.equal('none');
    expect(memberTrustOf(https({ scheme: 'HTTP' }), spec()).kind).to.equal('none');
    expect(memberTrustOf({ httpGet: { host: '10.20.0.5', port: 6443 } }, spec()).kind).to.equal('none');
    expect(memberTrustOf({ tcpSocket: { port: 6443 } }, spec()).kind).to.equal('none');
    expect(memberTrustOf(https(), spec({ apiEndpoint: 'http://10.20.0.5:6443' })).kind).to.equal('none');
  });

  it('follows spec.insecureSkipTLSVerification as Karmada does, and needs a secretRef otherwise', () => {
    expect(memberTrustOf(https(), spec({ insecureSkipTLSVerification: true }))).to.deep.equal({ kind: 'insecure' });
    expect(memberTrustOf(https(), { syncMode: 'Push', apiEndpoint: 'https://10.20.0.5:6443' }).kind).to.equal('none');
  });

  it('hands the trust to the engine in a copy of the probe', () => {
    const probe = https();
    expect(withMemberTrust(probe, { kind: 'ca', caBundle: 'Q0E=' }).httpGet).to.include({ caBundle: 'Q0E=' });
    expect(withMemberTrust(probe, { kind: 'insecure' }).httpGet).to.include({ insecureSkipTLSVerify: true });
    expect(probe.httpGet).not.to.have.property('caBundle');
  });
});
