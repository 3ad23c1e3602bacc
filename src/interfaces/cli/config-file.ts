import { existsSync, readFileSync } from 'node:fs';
import { ConfigError } from '../../core/errors.js';

export const DEFAULT_CONFIG_FILE = 'citedocs.config.json';

/** Reads the JSON config file: the one given, or ./citedocs.config.json when present. */
export function readConfigFile(path: string | undefined, cwd: string): { values: Record<string, unknown>; path?: string } {
  const file = path ?? `${cwd}/${DEFAULT_CONFIG_FILE}`;
  if (path === undefined && !existsSync(file)) return { values: {} };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`Could not read the config file ${file}. Check the --config path.`, { cause: error });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return { values: parsed as Record<string, unknown>, path: file };
  } catch (error) {
    throw new ConfigError(`The config file ${file} is not a JSON object (${error instanceof Error ? error.message : String(error)}). Fix its syntax.`, { cause: error });
  }
}
