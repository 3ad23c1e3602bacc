/** The fields that were given (zod's optional fields read `undefined` when absent; the engine's options must not hold it). */
export function given<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as { [K in keyof T]?: Exclude<T[K], undefined> };
}
