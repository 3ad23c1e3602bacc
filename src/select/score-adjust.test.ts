import { describe, expect, it } from 'vitest';
import { candidate } from '../testing/candidates.js';
import { adjustedScore } from './score-adjust.js';

const now = new Date('2026-11-22T00:00:00Z');
const fused = (item: { scores: { fused: number } }) => item.scores.fused;

describe('adjustedScore', () => {
  it('multiplies by the weight of the most specific matching domain, subdomains included', () => {
    const score = adjustedScore(fused, { domainWeights: { 'python.org': 1.2, 'docs.python.org': 1.5 }, freshness: { weight: 0, halfLifeDays: 365 }, now });
    expect(score(candidate({ url: 'https://docs.python.org/3/library/json.html', text: 'x', score: 2 }))).toBeCloseTo(3);
    expect(score(candidate({ url: 'https://wiki.python.org/moin', text: 'x', score: 2 }))).toBeCloseTo(2.4);
    expect(score(candidate({ url: 'https://notpython.org/x', text: 'x', score: 2 }))).toBe(2);
  });

  it('boosts newer pages: a page modified now gets the full boost, one half-life old half of it, unknown age counts as one half-life', () => {
    const dates: Record<string, string> = { 'https://a.example/new': now.toUTCString(), 'https://a.example/old': new Date('2025-11-22T00:00:00Z').toUTCString() };
    const score = adjustedScore(fused, { domainWeights: {}, freshness: { weight: 0.5, halfLifeDays: 365 }, lastModified: (url) => dates[url], now });
    expect(score(candidate({ url: 'https://a.example/new', text: 'x', score: 1 }))).toBeCloseTo(1.5);
    expect(score(candidate({ url: 'https://a.example/old', text: 'x', score: 1 }))).toBeCloseTo(1.25);
    expect(score(candidate({ url: 'https://a.example/unknown', text: 'x', score: 1 }))).toBeCloseTo(1.25);
  });

  it('leaves scores alone when no adjustment is configured', () => {
    const score = adjustedScore(fused, { domainWeights: {}, freshness: { weight: 0, halfLifeDays: 365 }, now });
    expect(score).toBe(fused);
  });
});
