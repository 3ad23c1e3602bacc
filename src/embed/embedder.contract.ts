import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dot, type Embedder } from './embedder.js';

/** The behaviour every Embedder shares; each provider (and each fake) runs this suite. */
export function runEmbedderContract(name: string, make: () => Embedder | Promise<Embedder>, options: { semantic?: boolean } = {}): void {
  describe(`Embedder contract: ${name}`, () => {
    let embedder: Embedder;
    beforeAll(async () => {
      embedder = await make();
    }, 60_000);
    afterAll(async () => {
      await embedder.close();
    });

    it('returns one unit-length vector of dimension() components per text, in order', async () => {
      const texts = ['Watering schedule for indoor plants', 'Create an index concurrently', 'Tax rules for small companies'];
      const vectors = await embedder.embed({ texts, mode: 'passage' });
      const dimension = await embedder.dimension();
      expect(dimension).toBeGreaterThan(0);
      expect(vectors).toHaveLength(3);
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector).toHaveLength(dimension);
        expect(Math.sqrt(dot(vector, vector))).toBeCloseTo(1, 3);
      }
      const [second] = await embedder.embed({ texts: [texts[1] ?? ''], mode: 'passage' });
      expect(dot(second ?? new Float32Array(), vectors[1] ?? new Float32Array())).toBeGreaterThan(0.999);
    }, 60_000);

    it('embeds an empty batch as an empty list', async () => {
      await expect(embedder.embed({ texts: [], mode: 'query' })).resolves.toEqual([]);
    });

    it('rejects at once when the caller has already aborted', async () => {
      const controller = new AbortController();
      controller.abort(new Error('stop'));
      await expect(embedder.embed({ texts: ['anything'], mode: 'query', abortSignal: controller.signal })).rejects.toThrow();
    });

    it('has a model id to store with its vectors', () => {
      expect(embedder.modelId).toMatch(/\S/);
      expect(embedder.maxBatchSize).toBeGreaterThan(0);
    });

    if (options.semantic === true) {
      it('puts a question nearer to the passage that answers it than to an unrelated one', async () => {
        const [question, answer, unrelated] = await embedder.embed({ texts: ['how often should I mist my fern?'], mode: 'query' }).then(async ([q]) => [
          q,
          ...(await embedder.embed({ texts: ['Watering schedule: spray the leaves of tropical plants with water twice a week.', 'The stock market closed lower on Friday.'], mode: 'passage' })),
        ]);
        if (question === undefined || answer === undefined || unrelated === undefined) throw new Error('missing vectors');
        expect(dot(question, answer)).toBeGreaterThan(dot(question, unrelated));
      }, 60_000);
    }
  });
}
