import { InvalidArgumentError } from 'commander';

/** Commander option parsers: a wrong value is a usage error that quotes it. */
export function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError(`"${value}" is not a positive whole number.`);
  return parsed;
}

export function nonNegativeInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new InvalidArgumentError(`"${value}" is not a whole number.`);
  return parsed;
}

export function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65_535) throw new InvalidArgumentError(`"${value}" is not a port number (0-65535).`);
  return parsed;
}

/** A repeatable option: each use adds its value. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
