import { describe, expect, it } from 'vitest';
import { isLeaving } from './is-leaving';

describe('leave guard', () => {
  it('guards a change of path', () => {
    expect(isLeaving({ pathname: '/module', search: '?a' }, { pathname: '/', search: '' })).toBe(true);
  });

  it('guards a change of query string only when asked (the cluster editor switching clusters)', () => {
    const here = { pathname: '/cluster', search: '?clusterId=C1&monthId=M01_2027' };
    const other = { pathname: '/cluster', search: '?clusterId=C2&monthId=M01_2027' };
    expect(isLeaving(here, other)).toBe(false);
    expect(isLeaving(here, other, true)).toBe(true);
    expect(isLeaving(here, { ...here }, true)).toBe(false);
  });
});
