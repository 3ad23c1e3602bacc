import type * as Transformers from '@huggingface/transformers';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { installInstruction, type InstallKind, installKind } from './install-hint.js';
import { optionalPackageSpec } from './package-info.js';

export type TransformersLibrary = typeof Transformers;

export interface TransformersModelLocation {
  /** A Hugging Face model id (looked up in the cache) or a local folder holding the model. */
  model: string;
  cacheDir?: string;
  /** Download a model missing from the cache. */
  allowRemote: boolean;
}

export interface PreparedTransformers {
  library: TransformersLibrary;
  /** The id to pass to from_pretrained / pipeline. */
  modelId: string;
  /** Where the model was looked for, for error messages. */
  where: string;
}

/**
 * Imports Transformers.js (an optional dependency: `missingPackage` says what to do without it)
 * and points it at the model: a folder on disk is loaded from there, anything else is a model
 * id looked up in the cache, downloaded only when `allowRemote` is set.
 */
export async function prepareTransformers(location: TransformersModelLocation, missingPackage: (cause: unknown) => Error): Promise<PreparedTransformers> {
  let library: TransformersLibrary;
  try {
    library = await import('@huggingface/transformers');
  } catch (error) {
    throw missingPackage(error);
  }
  const folder = resolve(location.model);
  const isFolder = existsSync(folder) && statSync(folder).isDirectory();
  const { env } = library;
  if (isFolder) env.localModelPath = dirname(folder);
  env.allowLocalModels = true;
  env.allowRemoteModels = location.allowRemote;
  if (location.cacheDir !== undefined) env.cacheDir = location.cacheDir;
  return {
    library,
    modelId: isFolder ? basename(folder) : location.model,
    where: isFolder ? `the folder ${folder}` : `the model cache${location.cacheDir === undefined ? '' : ` (${location.cacheDir})`}`,
  };
}

/** How to install Transformers.js (an optional peer dependency) where this copy of citedocs imports it from. */
export function transformersInstallHint(where: InstallKind = installKind()): string {
  return installInstruction([optionalPackageSpec('@huggingface/transformers')], where);
}
