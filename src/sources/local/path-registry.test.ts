import { describe, expect, it } from 'vitest';
import { PathRegistry } from './path-registry.js';

describe('PathRegistry', () => {
  it('maps a/b.md, a/b.mdx and a/b/index.md to one canonical URL, never the parent folder', () => {
    const registry = new PathRegistry('https://d.example/docs', 'clean');
    expect(registry.urlFor('a/b.md')).toBe('https://d.example/docs/a/b');
    expect(registry.urlFor('a/b.mdx')).toBe('https://d.example/docs/a/b');
    expect(registry.urlFor('a/b/index.md')).toBe('https://d.example/docs/a/b');
    expect(registry.urlFor('a/b/README.md')).toBe('https://d.example/docs/a/b');
    expect(registry.urlFor('index.md')).toBe('https://d.example/docs/');
  });

  it('supports trailing-slash and .html publishing styles', () => {
    expect(new PathRegistry('https://d.example/docs/', 'slash').urlFor('a/b.md')).toBe('https://d.example/docs/a/b/');
    expect(new PathRegistry('https://d.example/docs/', 'slash').urlFor('a/b/index.md')).toBe('https://d.example/docs/a/b/');
    expect(new PathRegistry('https://d.example/docs/', 'html').urlFor('a/b.md')).toBe('https://d.example/docs/a/b.html');
  });

  it('keeps the file path in source style (file:// URLs of a folder given without --base-url)', () => {
    expect(new PathRegistry('file:///srv/docs/', 'source').urlFor('a/b/index.md')).toBe('file:///srv/docs/a/b/index.md');
  });

  it('uses a front-matter slug, absolute from the base or relative to the folder', () => {
    const registry = new PathRegistry('https://d.example/docs/', 'clean');
    expect(registry.urlFor('guide/intro.md', '/start')).toBe('https://d.example/docs/start');
    expect(registry.urlFor('guide/intro.md', 'welcome')).toBe('https://d.example/docs/guide/welcome');
  });

  it('refuses to give two documents the same URL: the first keeps it', () => {
    const registry = new PathRegistry('https://d.example/', 'clean');
    expect(registry.register('a/index.md')).toEqual({ url: 'https://d.example/a' });
    expect(registry.register('a.md')).toEqual({ url: 'https://d.example/a', conflictWith: 'a/index.md' });
    expect(registry.lookup('a/index.md')).toBe('https://d.example/a');
  });

  it('looks documents up with or without their extension, and percent-encodes paths', () => {
    const registry = new PathRegistry('https://d.example/', 'clean');
    registry.register('guide/first steps.md');
    expect(registry.lookup('guide/first steps')).toBe('https://d.example/guide/first%20steps');
    expect(registry.lookup('./guide/first steps.md')).toBe('https://d.example/guide/first%20steps');
    expect(registry.lookup('missing.md')).toBeUndefined();
  });
});
