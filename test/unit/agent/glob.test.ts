/**
 * Datacenter and namespace globs: a plain name matches only itself (regex characters in it are
 * literal), `*` and `?` are wildcards, and a pattern answers the same on every use.
 */
import { globMatch } from '../../../src/agent/sched/scheduler/constraints';

describe('globMatch', () => {
  it('matches a plain name only to itself', () => {
    expect(globMatch('dc1', 'dc1')).toBe(true);
    expect(globMatch('dc1', 'dc10')).toBe(false);
    expect(globMatch('dc1', 'xdc1')).toBe(false);
    expect(globMatch('dc.1', 'dcx1')).toBe(false);
    expect(globMatch('dc.1', 'dc.1')).toBe(true);
    expect(globMatch('a+(b)', 'a+(b)')).toBe(true);
  });

  it('treats * and ? as wildcards, the rest of the pattern literally', () => {
    expect(globMatch('*', 'anything')).toBe(true);
    expect(globMatch('dc*', 'dc-west')).toBe(true);
    expect(globMatch('dc*', 'east-dc')).toBe(false);
    expect(globMatch('dc?', 'dc2')).toBe(true);
    expect(globMatch('dc?', 'dc22')).toBe(false);
    expect(globMatch('d.*', 'd.west')).toBe(true);
    expect(globMatch('d.*', 'dxwest')).toBe(false);
  });

  it('gives the same answer when a pattern is used again', () => {
    for (let i = 0; i < 3; i++) {
      expect(globMatch('us-*-1', 'us-east-1')).toBe(true);
      expect(globMatch('us-*-1', 'us-east-2')).toBe(false);
    }
  });
});
