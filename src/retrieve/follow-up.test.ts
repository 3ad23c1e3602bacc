import { describe, expect, it } from 'vitest';
import { candidate } from '../testing/candidates.js';
import { unsupportedTerms } from './follow-up.js';

describe('unsupportedTerms', () => {
  it('returns the question terms none of the top candidates contains, in question order', () => {
    const top = [candidate({ text: 'Rotate the signing keys from the dashboard.' }), candidate({ text: 'Rotated keys stay valid for a day.' })];
    expect(unsupportedTerms('How do I rotate signing keys and configure webhook retries?', top)).toEqual(['configure', 'webhook', 'retries']);
  });

  it('counts a term supported when any one of the candidates has it', () => {
    const top = [candidate({ text: 'Rotate the signing keys.' }), candidate({ text: 'Webhook deliveries are retried.' })];
    expect(unsupportedTerms('rotate keys webhook', top)).toEqual([]);
  });

  it('compares stems: "indexes" is supported by "index", "retries" by "retried"', () => {
    const top = [candidate({ text: 'Drop an index; failed deliveries are retried.' })];
    expect(unsupportedTerms('drop indexes retries tablespace', top)).toEqual(['tablespace']);
    expect(unsupportedTerms('index tablespace', [candidate({ text: 'Rebuild all indexes.' })])).toEqual(['tablespace']);
  });

  it('is case-insensitive and reads the page title and heading path too', () => {
    const top = [candidate({ title: 'Webhooks', headingPath: ['Delivery', 'Retries'], text: 'Failed DELIVERIES back off exponentially.' })];
    expect(unsupportedTerms('webhook retries deliveries signing', top)).toEqual(['signing']);
  });

  it('ignores the stop-words of the question', () => {
    expect(unsupportedTerms('How do I rotate the keys?', [candidate({ text: 'Rotate keys daily.' })])).toEqual([]);
  });

  it('returns [] when every term is missing: a follow-up would only repeat the query', () => {
    expect(unsupportedTerms('rotate signing keys', [candidate({ text: 'Vacuum reclaims storage.' })])).toEqual([]);
  });

  it('returns [] for a question of one term', () => {
    expect(unsupportedTerms('How do I use webhooks?', [candidate({ text: 'Rotate keys daily.' })])).toEqual([]);
  });

  it('returns [] when there are no candidates', () => {
    expect(unsupportedTerms('rotate signing keys', [])).toEqual([]);
  });
});
