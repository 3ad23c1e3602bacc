import { describe, expect, it } from 'vitest';
import { retrievalQuery } from './conversation.js';

describe('retrieval query of a conversation', () => {
  it('searches a first question as it is', () => {
    expect(retrievalQuery('how do I create an index concurrently', [])).toBe('how do I create an index concurrently');
  });

  it('searches a follow-up that points back together with the previous question', () => {
    expect(retrievalQuery('and how do I drop it?', ['how do I create an index concurrently'])).toBe('how do I create an index concurrently and how do I drop it?');
  });

  it('searches a short follow-up with the previous question, even without a pronoun', () => {
    expect(retrievalQuery('what about Windows?', ['where are the config files', 'how do I set the timeout'])).toBe('how do I set the timeout what about Windows?');
  });

  it('searches a question that names its own topic alone, whatever came before', () => {
    expect(retrievalQuery('how do I configure streaming replication between two servers', ['what does VACUUM FULL do'])).toBe(
      'how do I configure streaming replication between two servers',
    );
  });
});
