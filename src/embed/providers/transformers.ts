import { prepareTransformers, transformersInstallHint } from '../../core/transformers-runtime.js';
import { type Embedder, EmbedderError, normalise } from '../embedder.js';
import { presetFor } from '../model-presets.js';

export interface TransformersEmbedderOptions {
  /** A Hugging Face model id with ONNX weights (`Xenova/bge-small-en-v1.5`) or a local folder holding one. */
  model: string;
  /** Where downloaded models are cached (Transformers.js's own default when unset). */
  cacheDir?: string;
  /** Download the model when it is not in the cache. Off by default: citedocs works offline. */
  allowRemote: boolean;
  /** Weights precision to load (`fp32`, `q8`, …); the model's default when unset. */
  dtype?: 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4';
  queryPrefix?: string;
  passagePrefix?: string;
  pooling?: 'mean' | 'cls';
}

interface FeatureTensor {
  tolist(): unknown;
}
type Extractor = (texts: string[], options: { pooling: 'mean' | 'cls'; normalize: boolean }) => Promise<FeatureTensor>;

/**
 * Any ONNX sentence-embedding model through Transformers.js (`@huggingface/transformers`, an
 * optional peer dependency; a missing one is refused with the install command). The model is read from a local
 * folder or the cache; it is downloaded only when `allowRemote` is set.
 */
export function createTransformersEmbedder(options: TransformersEmbedderOptions): Embedder {
  const preset = presetFor(options.model);
  const pooling = options.pooling ?? preset.pooling;
  const prefix = { query: options.queryPrefix ?? preset.queryPrefix, passage: options.passagePrefix ?? preset.passagePrefix };
  let extractor: Promise<Extractor> | undefined;
  let dimension: number | undefined;

  const load = (): Promise<Extractor> =>
    (extractor ??= loadExtractor(options).catch((error: unknown) => {
      extractor = undefined;
      throw error;
    }));
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const output = await (await load())(texts, { pooling, normalize: true });
    const rows = output.tolist();
    if (!Array.isArray(rows) || !rows.every((row) => Array.isArray(row) && row.every((value) => typeof value === 'number'))) {
      throw new EmbedderError(`The model ${options.model} did not return one vector per text; is it a sentence-embedding (feature-extraction) model?`);
    }
    return (rows as number[][]).map((row) => normalise(Float32Array.from(row)));
  };

  return {
    modelId: `transformers:${options.model}`,
    maxBatchSize: 16,
    async dimension() {
      dimension ??= (await run(['dimension probe']))[0]?.length ?? 0;
      return dimension;
    },
    async embed({ texts, mode, abortSignal }) {
      abortSignal?.throwIfAborted();
      if (texts.length === 0) return [];
      const vectors = await run(texts.map((text) => prefix[mode] + text));
      abortSignal?.throwIfAborted();
      dimension ??= vectors[0]?.length;
      return vectors;
    },
    close: () => Promise.resolve(),
  };
}

async function loadExtractor(options: TransformersEmbedderOptions): Promise<Extractor> {
  const { library, modelId, where } = await prepareTransformers(
    options,
    (cause) =>
      new EmbedderError(`The transformers embedder needs the optional package @huggingface/transformers: install it with ${transformersInstallHint()}, or choose another embedder with --embedder.`, {
        cause,
      }),
  );
  try {
    const extractor = await library.pipeline('feature-extraction', modelId, {
      local_files_only: !options.allowRemote,
      ...(options.dtype === undefined ? {} : { dtype: options.dtype }),
    });
    return extractor as unknown as Extractor;
  } catch (error) {
    const hint = options.allowRemote
      ? 'Check the model id (it needs ONNX weights, like the Xenova/ models) and the network.'
      : 'Download it once with `embed.transformers.allowRemote: true` in the configuration where the network allows, or point --embedder at a local folder holding the model (config.json, tokenizer.json, onnx/model.onnx).';
    throw new EmbedderError(`Could not load the embedding model ${options.model} from ${where}: ${error instanceof Error ? error.message : String(error)}. ${hint}`, {
      cause: error,
    });
  }
}
