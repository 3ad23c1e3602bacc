import { describe, expect, it } from 'vitest';
import { robotsHeader } from './robots-header.js';

const UA = 'citedocs/0.1 (+https://example.com)';

describe('robotsHeader', () => {
  it('reads noindex, nofollow and none, for every robot or for this one by name, and ignores what another robot is told', () => {
    expect(robotsHeader(null, UA)).toEqual({ noindex: false, nofollow: false });
    expect(robotsHeader('noindex', UA)).toEqual({ noindex: true, nofollow: false });
    expect(robotsHeader('NoIndex, NoFollow', UA)).toEqual({ noindex: true, nofollow: true });
    expect(robotsHeader('none', UA)).toEqual({ noindex: true, nofollow: true });
    expect(robotsHeader('googlebot: noindex, nofollow', UA)).toEqual({ noindex: false, nofollow: false });
    expect(robotsHeader('googlebot: noarchive, citedocs: noindex', UA)).toEqual({ noindex: true, nofollow: false });
    expect(robotsHeader('unavailable_after: 25 Jun 2030 15:00:00 PST, nofollow', UA)).toEqual({ noindex: false, nofollow: true });
    expect(robotsHeader('max-snippet: 20, noindex', UA)).toEqual({ noindex: true, nofollow: false });
  });
});
