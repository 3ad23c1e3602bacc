import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Diagnostic, DIAGNOSTIC_CODES } from '../core/diagnostics.js';
import { STAGES } from '../core/stages.js';
import type { Llm } from '../llm/llm.js';
import { docsWorkspace } from '../testing/workspace.js';
import { createEngine } from './engine.js';

const SRC = fileURLToPath(new URL('../', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

/** A result's warnings and diagnostics agree one for one, and every diagnostic has a catalogued code of its stage. */
function expectCoded(result: { warnings: string[]; diagnostics: Diagnostic[] }): string[] {
  expect(result.warnings).toEqual(result.diagnostics.map((entry) => entry.message));
  for (const entry of result.diagnostics) {
    expect(Object.keys(DIAGNOSTIC_CODES), entry.message).toContain(entry.code);
    expect(entry.stage, entry.code).toBe(DIAGNOSTIC_CODES[entry.code].stage);
  }
  return result.diagnostics.map((entry) => entry.code);
}

/** A model that is down: every call fails, so every fallback that needs a model is taken. */
const downLlm: Llm = {
  modelId: 'test:down',
  complete: () => Promise.reject(new Error('connection refused')),
  // eslint-disable-next-line require-yield
  async *stream() {
    throw new Error('connection refused');
  },
};

const files = {
  'guide/setup.md': '# Setup\n\n## Configure timeouts\n\nSet `timeoutMs` in the config file to change how long a request may take. The default is thirty seconds, and a request that takes longer is stopped with an error naming the URL.',
  'guide/install.md': '# Install\n\n## Install the CLI\n\nRun `npm install widget` to install the command line tool, then run `widget --help`.',
  'reference/config.md': '# Configuration\n\n## timeoutMs\n\nHow long a request may take, in milliseconds.\n\n## retries\n\nHow often a failed request is tried again.',
  'reference/errors.md': '# Errors\n\n## Timeout errors\n\nA request that takes longer than timeoutMs fails with a timeout error.',
};

describe('diagnostics', () => {
  it('catalogues each code once, in a known stage, and every code is given somewhere in the source', () => {
    const source = sourceFiles(SRC)
      .filter((path) => !path.endsWith(join('core', 'diagnostics.ts')))
      .map((path) => readFileSync(path, 'utf8'))
      .join('\n');
    for (const [code, { stage, meaning }] of Object.entries(DIAGNOSTIC_CODES)) {
      expect(code).toMatch(/^[a-z]+\.[a-z]+(?:-[a-z]+)*$/);
      expect(STAGES).toContain(stage);
      expect(meaning.length).toBeGreaterThan(10);
      expect(source, `no module gives ${code}`).toContain(`'${code}'`);
    }
  });

  it('every warning the engine gives has a code: search, ask and ingest with every model call failing', async () => {
    const { docs, dbPath } = docsWorkspace(files);
    const writer = createEngine({ dbPath });
    const ingested = await writer.ingest(docs, { baseUrl: 'https://widget.example/docs/' });
    // Closed, so another engine reads everything it wrote.
    await writer.close();
    expectCoded(ingested);
    // Reranking with the model (auto picks llm-pointwise), expansion and follow-up analysis: all fail.
    const engine = createEngine({ dbPath, rerank: { minCandidatesForAssessment: 1 } }, { llm: downLlm });
    const codes = new Set<string>();
    const search = await engine.search('timeoutMs request timeout error');
    for (const code of expectCoded(search)) codes.add(code);
    const answered = await engine.ask('how do I change the request timeout?');
    for (const code of expectCoded(answered)) codes.add(code);
    for (const code of expectCoded(await engine.search('kubernetes helm chart'))) codes.add(code);
    for (const code of expectCoded(await engine.search('timeoutMs request timeout error', { maxTokens: 12 }))) codes.add(code);
    expect([...codes].sort()).toEqual(expect.arrayContaining(['answer.llm-failed', 'rank.reranker-failed', 'retrieve.no-match', 'retrieve.technique-failed']));
    expect([...codes].some((code) => code.startsWith('budget.'))).toBe(true);
    await engine.close();
  });
});
