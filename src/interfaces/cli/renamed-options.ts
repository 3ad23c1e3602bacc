import { Option } from 'commander';
import { UsageError } from '../../core/errors.js';

/**
 * An option renamed for a clearer one: the old flag still works (scripts keep running), is hidden
 * from --help, and says on stderr what to write instead.
 */
export function deprecatedAlias(flags: string, replacement: string, parse: (value: string) => number): Option {
  return new Option(flags, `deprecated: use ${replacement}`).hideHelp().argParser(parse);
}

export interface Rename {
  command: string;
  old: string;
  replacement: string;
}

/** The value given under the new name or the old one (with a deprecation note); both, disagreeing, is a usage error. */
export function renamedValue<T>(current: T | undefined, old: T | undefined, rename: Rename, warn: (code: string, message: string) => void): T | undefined {
  if (old === undefined) return current;
  warn(
    'deprecated-option',
    `${rename.old} is deprecated for citedocs ${rename.command}: use ${rename.replacement} (the same meaning; ${rename.old} meant something else in each command). It will be removed in a later version.`,
  );
  if (current !== undefined && current !== old) throw new UsageError(`${rename.old} ${String(old)} and ${rename.replacement} ${String(current)} disagree: give ${rename.replacement} only.`);
  return current ?? old;
}
