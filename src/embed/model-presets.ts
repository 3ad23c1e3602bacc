/**
 * What well-known embedding models expect around their input: bge's query instruction,
 * e5's and nomic's prefixes, and which pooling their sentence vectors use. Matched on the
 * model id's last path segment, so `Xenova/bge-small-en-v1.5`, `BAAI/bge-small-en-v1.5`
 * and a local folder named `bge-small-en-v1.5` all get the same treatment.
 */
export interface ModelPreset {
  queryPrefix: string;
  passagePrefix: string;
  pooling: 'mean' | 'cls';
}

const PRESETS: { pattern: RegExp; preset: ModelPreset }[] = [
  { pattern: /^bge-.*-en-v1\.5$/i, preset: { queryPrefix: 'Represent this sentence for searching relevant passages: ', passagePrefix: '', pooling: 'cls' } },
  { pattern: /^bge-/i, preset: { queryPrefix: 'Represent this sentence for searching relevant passages: ', passagePrefix: '', pooling: 'cls' } },
  { pattern: /^(multilingual-)?e5-/i, preset: { queryPrefix: 'query: ', passagePrefix: 'passage: ', pooling: 'mean' } },
  { pattern: /^nomic-embed-text/i, preset: { queryPrefix: 'search_query: ', passagePrefix: 'search_document: ', pooling: 'mean' } },
];

const PLAIN: ModelPreset = { queryPrefix: '', passagePrefix: '', pooling: 'mean' };

export function presetFor(modelId: string): ModelPreset {
  const name = modelId.replace(/[/\\]+$/, '').split(/[/\\]/).pop()?.split(':')[0] ?? modelId;
  return PRESETS.find(({ pattern }) => pattern.test(name))?.preset ?? PLAIN;
}
