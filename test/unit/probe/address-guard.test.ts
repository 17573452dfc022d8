// The deny list: CIDR matching for IPv4, IPv6 and IPv4-mapped addresses, and the check on the resolved address.
import { expect } from 'chai';
import { AddressGuard, DEFAULT_DENY_LIST, parseCidr, runProbe } from '../../../packages/probe/src/index.js';

describe('address guard', () => {
  const guard = new AddressGuard();

  it('denies link-local and cloud metadata addresses by default', () => {
    // One default list with the schema library's (src/address): 169.254.169.254 lies in link-local.
    expect(guard.deniedBy('169.254.169.254')).to.equal('169.254.0.0/16');
    expect(guard.deniedBy('169.254.1.2')).to.equal('169.254.0.0/16');
    expect(guard.deniedBy('100.100.100.200')).to.equal('100.100.100.200/32');
    expect(guard.deniedBy('fe80::1')).to.equal('fe80::/10');
    expect(guard.deniedBy('febf:ffff::1')).to.equal('fe80::/10');
    expect(guard.deniedBy('fd00:ec2::254')).to.equal('fd00:ec2::254/128');
    expect(DEFAULT_DENY_LIST).to.include('169.254.0.0/16');
  });

  it('allows loopback and ordinary addresses', () => {
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '169.253.255.255', '169.255.0.0', 'fec0::1', 'fd00:ec2::253'])
      expect(guard.deniedBy(ip), ip).to.equal(undefined);
  });

  it('names the most specific entry that denies an address', () => {
    const g = new AddressGuard(['169.254.0.0/16', '169.254.169.254/32']);
    expect(g.deniedBy('169.254.169.254')).to.equal('169.254.169.254/32');
    expect(g.deniedBy('169.254.1.2')).to.equal('169.254.0.0/16');
  });

  it('sees through IPv4-mapped IPv6 addresses', () => {
    expect(guard.deniedBy('::ffff:169.254.169.254')).to.equal('169.254.0.0/16');
    expect(guard.deniedBy('::ffff:a9fe:a9fe')).to.equal('169.254.0.0/16');
  });

  it('rejects malformed CIDRs with a message naming them', () => {
    expect(() => parseCidr('10.0.0.0/33')).to.throw(/10\.0\.0\.0\/33/);
    expect(() => parseCidr('not-an-ip')).to.throw(/not-an-ip/);
    expect(() => parseCidr('10.0.0.0/x')).to.throw(/prefix/);
  });

  it('matches a /0 and an exact /32', () => {
    const g = new AddressGuard(['0.0.0.0/0', '2001:db8::1/128']);
    expect(g.deniedBy('8.8.8.8')).to.equal('0.0.0.0/0');
    expect(g.deniedBy('2001:db8::1')).to.equal('2001:db8::1/128');
    expect(g.deniedBy('2001:db8::2')).to.equal(undefined);
  });

  it('checks the address a name resolves to at connect time, not the name', async () => {
    // `localhost` is no IP literal: only the resolved 127.0.0.1 / ::1 can match the list.
    const res = await runProbe({ tcpSocket: { host: 'localhost', port: 9 } }, { denyList: ['127.0.0.0/8', '::1/128'] });
    expect(res.result).to.equal('error');
    expect(res.message).to.match(/address (127\.0\.0\.1|::1) of host "localhost" is denied/);
  });

  it('refuses an IP literal on the list without connecting', async () => {
    const res = await runProbe({ httpGet: { host: '169.254.169.254', port: 80, path: '/latest/meta-data' } });
    expect(res.result).to.equal('error');
    expect(res.message).to.equal(
      "httpGet: address 169.254.169.254 is denied by the probe's deny list (169.254.0.0/16)",
    );
  });

  it('allows everything with an empty list', () => {
    expect(new AddressGuard([]).deniedBy('169.254.169.254')).to.equal(undefined);
  });
});
