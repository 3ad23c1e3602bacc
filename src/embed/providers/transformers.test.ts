import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbedderError } from '../embedder.js';
import { createTransformersEmbedder } from './transformers.js';

// No ONNX model can be downloaded here: these tests run the real loading code and check
// that a model it cannot load is reported with what to do, never silently downloaded.
describe('Transformers.js embedder', () => {
  const cacheDir = mkdtempSync(join(tmpdir(), 'citedocs-hf-cache-'));
  afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

  it('names the model and the cache, and says how to download it, when the model is not cached and downloads are off', async () => {
    const embedder = createTransformersEmbedder({ model: 'Xenova/bge-small-en-v1.5', cacheDir, allowRemote: false });
    expect(embedder.modelId).toBe('transformers:Xenova/bge-small-en-v1.5');
    const failure = embedder.embed({ texts: ['hello'], mode: 'query' });
    await expect(failure).rejects.toBeInstanceOf(EmbedderError);
    await expect(failure).rejects.toThrow(/Xenova\/bge-small-en-v1\.5.*model cache.*allowRemote: true/s);
  }, 60_000);

  it('names the folder when a local model folder holds no model', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'bge-small-en-v1.5-'));
    try {
      const embedder = createTransformersEmbedder({ model: folder, allowRemote: false });
      await expect(embedder.dimension()).rejects.toThrow(new RegExp(`the folder ${folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});
