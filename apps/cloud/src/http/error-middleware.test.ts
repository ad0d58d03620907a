import { describe, expect, it } from 'vitest';
import { describeIssues, MESSAGE_BOUNDS, truncate } from './error-middleware.ts';

describe('describeIssues', () => {
  const issue = (n: number) => ({ path: `body.items.${n}`, message: 'must be 1 or more' });

  it('lists every issue when there are few', () => {
    expect(describeIssues([issue(0), { path: '', message: 'send a body' }])).toBe('body.items.0: must be 1 or more; send a body');
  });

  it('lists the first ten and counts the rest', () => {
    const text = describeIssues(Array.from({ length: 12_345 }, (_, i) => issue(i)));
    expect(text.split('; ')).toHaveLength(MESSAGE_BOUNDS.issues + 1);
    expect(text).toContain('body.items.9: ');
    expect(text).not.toContain('body.items.10: ');
    expect(text.endsWith('; … and 12335 more')).toBe(true);
  });

  it('cuts each issue to its bound', () => {
    const text = describeIssues([{ path: 'body', message: `Unrecognized keys: ${'"k", '.repeat(10_000)}` }]);
    expect(text).toHaveLength(MESSAGE_BOUNDS.issueChars);
    expect(text.endsWith('…')).toBe(true);
  });
});

describe('truncate', () => {
  it('leaves a short text alone and cuts a long one to the bound, ending in an ellipsis', () => {
    expect(truncate('abc', 3)).toBe('abc');
    expect(truncate('abcdef', 4)).toBe('abc…');
  });

  it('never leaves half a surrogate pair', () => {
    const cut = truncate(`ab${'😀'.repeat(5)}`, 4); // 'ab' + the high half of the first emoji would be 3 units
    expect(cut).toBe('ab…');
    expect(cut).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });
});
