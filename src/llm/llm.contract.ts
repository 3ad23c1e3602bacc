import { describe, expect, it } from 'vitest';
import type { Llm, LlmRequest } from './llm.js';

/**
 * The behaviour every Llm shares, fakes included. `makeLlm` must give a deterministic model
 * (the same request gives the same reply), so streaming and completing can be compared.
 */
export function runLlmContract(name: string, makeLlm: () => Llm | Promise<Llm>): void {
  const request: LlmRequest = {
    messages: [
      { role: 'system', content: 'Answer in one short sentence.' },
      { role: 'user', content: 'Which port does the documentation server listen on?' },
    ],
    maxTokens: 64,
    temperature: 0,
  };

  describe(`Llm contract: ${name}`, () => {
    it('names its model', async () => {
      const llm = await makeLlm();
      expect(llm.modelId).toMatch(/\S/);
    });

    it('completes a request with text', async () => {
      const llm = await makeLlm();
      const response = await llm.complete(request);
      expect(response.text).toMatch(/\S/);
      expect(response.model).toMatch(/\S/);
      if (response.usage !== undefined) {
        expect(response.usage.promptTokens).toBeGreaterThanOrEqual(0);
        expect(response.usage.completionTokens).toBeGreaterThanOrEqual(0);
      }
    });

    it('streams deltas whose concatenation equals the completion', async () => {
      const llm = await makeLlm();
      const deltas: string[] = [];
      for await (const delta of llm.stream(request)) deltas.push(delta);
      expect(deltas.length).toBeGreaterThan(0);
      expect(deltas.join('')).toBe((await llm.complete(request)).text);
    });

    it('rejects a request whose signal is already aborted, for complete and stream', async () => {
      const llm = await makeLlm();
      const abortSignal = AbortSignal.abort(new Error('the caller gave up'));
      await expect(llm.complete({ ...request, abortSignal })).rejects.toBeInstanceOf(Error);
      const iterate = async (): Promise<void> => {
        for await (const _delta of llm.stream({ ...request, abortSignal })) {
          // Nothing may arrive.
        }
      };
      await expect(iterate()).rejects.toBeInstanceOf(Error);
    });

    it('rejects when the signal aborts while the request runs', async () => {
      const llm = await makeLlm();
      const controller = new AbortController();
      const pending = llm.complete({ ...request, abortSignal: controller.signal });
      controller.abort(new Error('the caller gave up'));
      await expect(pending).rejects.toBeInstanceOf(Error);
    });
  });
}
