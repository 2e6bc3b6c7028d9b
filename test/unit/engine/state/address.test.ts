import {
  AddressError,
  compareAddresses,
  formatAddress,
  parseAddress,
} from '../../../../src/engine/state/address';

describe('resource addresses', () => {
  it('parses the forms Terraform prints', () => {
    expect(parseAddress('sched_job.web')).toEqual({
      module: '',
      mode: 'managed',
      type: 'sched_job',
      name: 'web',
    });
    expect(parseAddress('sched_job.web[0]')).toMatchObject({ key: 0 });
    expect(parseAddress('sched_job.web["k.1"]')).toMatchObject({ key: 'k.1' });
    expect(parseAddress('data.sched_job.x')).toEqual({
      module: '',
      mode: 'data',
      type: 'sched_job',
      name: 'x',
    });
    expect(parseAddress('module.a["x"].module.b.reg_namespace.n[2]')).toEqual({
      module: 'module.a["x"].module.b',
      mode: 'managed',
      type: 'reg_namespace',
      name: 'n',
      key: 2,
    });
  });

  it('formats back to the same text', () => {
    for (const a of [
      'sched_job.web',
      'sched_job.web[10]',
      'sched_job.web["a \\"quoted\\" key"]',
      'data.sched_allocations.all',
      'module.m[1].sched_job.web',
    ]) {
      expect(formatAddress(parseAddress(a))).toBe(a);
    }
  });

  it('rejects malformed addresses with the reason', () => {
    expect(() => parseAddress('sched_job')).toThrow(AddressError);
    expect(() => parseAddress('sched_job.web[0')).toThrow(/expected "]"/);
    expect(() => parseAddress('sched_job.web[-1]')).toThrow(/non-negative integer/);
    expect(() => parseAddress('sched_job.web["k]')).toThrow(/unterminated/);
    expect(() => parseAddress('sched_job.web.extra')).toThrow(/unexpected "\.extra"/);
    expect(() => parseAddress('1job.web')).toThrow(/resource type/);
  });

  it('orders like the state file: no key, numbers, strings', () => {
    const sorted = [
      'sched_job.b["a"]',
      'sched_job.b[10]',
      'sched_job.a',
      'sched_job.b[2]',
      'data.sched_job.z',
    ]
      .map(parseAddress)
      .sort(compareAddresses)
      .map(formatAddress);
    expect(sorted).toEqual([
      'data.sched_job.z',
      'sched_job.a',
      'sched_job.b[2]',
      'sched_job.b[10]',
      'sched_job.b["a"]',
    ]);
  });
});
