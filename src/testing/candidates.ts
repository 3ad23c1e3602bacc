import type { Candidate } from '../core/types.js';

/** A candidate for stage tests: a passage of `url` with the given text and score. */
export function candidate(options: { url?: string; anchor?: string; text: string; score?: number; tokenCount?: number; title?: string; headingPath?: string[] }): Candidate {
  const url = options.url ?? 'https://d.example/page.html';
  return {
    chunk: {
      id: `${url}#${options.anchor ?? ''}:${options.text.slice(0, 20)}`,
      pageUrl: url,
      pageTitle: options.title ?? 'Page',
      ...(options.anchor === undefined ? {} : { anchor: options.anchor }),
      headingPath: options.headingPath ?? [],
      text: options.text,
      tokenCount: options.tokenCount ?? options.text.split(/\s+/).length,
      contentHash: `hash:${options.text}`,
    },
    scores: { fused: options.score ?? 1 },
    techniques: ['test'],
    trace: [],
  };
}
