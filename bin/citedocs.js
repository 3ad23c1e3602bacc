#!/usr/bin/env node
// An installed package runs its build (dist/). A clone runs its TypeScript sources through tsx (a
// development dependency), so `npx citedocs` there never runs a build gone stale behind the sources.
import { existsSync } from 'node:fs';

const sources = new URL('../src/interfaces/cli/bin.ts', import.meta.url);
if (existsSync(sources)) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(sources.href);
} else {
  await import('../dist/interfaces/cli/bin.js');
}
