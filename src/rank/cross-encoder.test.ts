import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../core/config.js';
import { candidate } from '../testing/candidates.js';
import { createCrossEncoderReranker, relevance } from './cross-encoder.js';
import { RerankError } from './reranker.js';

const RERANK = DEFAULT_CONFIG.rerank;

// No ONNX model can be downloaded here: these tests run the real loading code and check that
// a model it cannot load is reported with what to do, never silently downloaded.
describe('cross-encoder reranker (Transformers.js)', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'citedocs-hf-cache-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));
  const candidates = [candidate({ text: 'Create an index concurrently.' }), candidate({ text: 'Unrelated.' })];

  it('names the model and the cache, and says how to download it, when the model is not cached and downloads are off', async () => {
    const reranker = createCrossEncoderReranker({ ...RERANK.crossEncoder, model: 'Xenova/ms-marco-MiniLM-L-6-v2', cacheDir, allowRemote: false });
    expect(reranker.name).toBe('cross-encoder');
    const failure = reranker.rerank({ query: 'how do I create an index', candidates });
    await expect(failure).rejects.toBeInstanceOf(RerankError);
    await expect(failure).rejects.toThrow(/cross-encoder model Xenova\/ms-marco-MiniLM-L-6-v2 from the model cache \(.*\).*allowRemote: true/s);
  }, 60_000);

  it('names the folder when a local model folder holds no model', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ms-marco-MiniLM-'));
    try {
      const reranker = createCrossEncoderReranker({ ...RERANK.crossEncoder, model: folder, allowRemote: false });
      await expect(reranker.rerank({ query: 'q', candidates })).rejects.toThrow(new RegExp(`the folder ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('does not load the model for no candidates, and rejects when aborted', async () => {
    const reranker = createCrossEncoderReranker({ ...RERANK.crossEncoder, model: 'Xenova/ms-marco-MiniLM-L-6-v2', cacheDir, allowRemote: false });
    await expect(reranker.rerank({ query: 'q', candidates: [] })).resolves.toEqual({ candidates: [], warnings: [] });
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(reranker.rerank({ query: 'q', candidates, abortSignal: controller.signal })).rejects.toThrow('stop');
  });

  it('turns one logit into a probability with the sigmoid, several with the softmax of the last label', () => {
    expect(relevance([0])).toBeCloseTo(0.5);
    expect(relevance([4])).toBeCloseTo(0.982, 3);
    expect(relevance([-4])).toBeCloseTo(0.018, 3);
    expect(relevance([0, 0])).toBeCloseTo(0.5);
    expect(relevance([-2, 2])).toBeCloseTo(0.982, 3);
  });
});
