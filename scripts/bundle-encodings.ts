/**
 * Bundles the tokenizer's encodings into the build: `npm run build` runs it after tsc, writing
 * dist/tokenize/encodings/<encoding>.js over tsc's output, each with the gpt-tokenizer code it
 * runs and its own ranks, and nothing else. The installed package then carries ~4 MB of
 * tokenizer instead of gpt-tokenizer's 26 MB (every encoding, in three builds, with its
 * sources), counting with the very same code; gpt-tokenizer is a development dependency.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;

/** Writes `<outdir>/<encoding>.js` for every encoding; returns the files written, with their sizes in bytes. */
export async function bundleEncodings(outdir: string): Promise<{ file: string; bytes: number }[]> {
  const tokenizerPackage = join(ROOT, 'node_modules', 'gpt-tokenizer');
  const { version } = JSON.parse(readFileSync(join(tokenizerPackage, 'package.json'), 'utf8')) as { version: string };
  const license = readFileSync(join(tokenizerPackage, 'LICENSE'), 'utf8').trim();
  const result = await build({
    entryPoints: ENCODINGS.map((encoding) => join(ROOT, 'src', 'tokenize', 'encodings', `${encoding}.ts`)),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // The ranks are strings of UTF-8 text: escaping them as \u sequences would grow them by a third.
    charset: 'utf8',
    banner: { js: `/*! Bundled from gpt-tokenizer ${version} (https://github.com/niieani/gpt-tokenizer), under its license:\n${license}\n*/` },
    metafile: true,
    logLevel: 'warning',
  });
  return Object.entries(result.metafile.outputs).map(([file, output]) => ({ file, bytes: output.bytes }));
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const { file, bytes } of await bundleEncodings(join(ROOT, 'dist', 'tokenize', 'encodings'))) {
    console.log(`bundled ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
  }
}
