// The deny list: the webhook's literal-IP check (schema) and the connect-time guard (probe) must deny the same
// addresses by default, and a malformed entry must be refused rather than read as something wider.
import { expect } from 'chai';
import { DEFAULT_DENY_LIST, AddressGuard } from '../../../packages/probe/src/index.js';
import { DEFAULT_DENY_CIDRS, parseDenyList } from '../../../packages/schema/src/schema/index.js';

const SAMPLES = [
  '169.254.169.254',
  '169.254.1.1',
  'fe80::1',
  'fd00:ec2::254',
  '100.100.100.200',
  '10.0.0.1',
  '127.0.0.1',
  '8.8.8.8',
  '::1',
  '100.100.100.201',
];

describe('the default deny list', () => {
  it('denies the same sample addresses in the schema library and in the probe engine', () => {
    const schema = parseDenyList(DEFAULT_DENY_CIDRS);
    const guard = new AddressGuard(DEFAULT_DENY_LIST);
    const bySchema = SAMPLES.filter((a) => schema.match(a) !== undefined);
    const byProbe = SAMPLES.filter((a) => guard.deniedBy(a) !== undefined);
    expect(bySchema).to.deep.equal(['169.254.169.254', '169.254.1.1', 'fe80::1', 'fd00:ec2::254', '100.100.100.200']);
    expect(byProbe).to.deep.equal(bySchema);
  });

  it('refuses malformed entries instead of widening them', () => {
    for (const bad of ['10.0.0.0/', '10.0.0.0/ 8', '10.0.0.0/8/1', '10.0.0.0/33', 'example.com/8'])
      expect(() => parseDenyList([bad]), bad).to.throw(`deny list entry ${JSON.stringify(bad)}`);
  });
});
