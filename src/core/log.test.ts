import { afterEach, describe, expect, it } from 'vitest';
import { UsageError } from './errors.js';
import { configureLogging, logger, parseLogSpec } from './log.js';

afterEach(() => configureLogging({ level: 'silent', stages: {}, format: 'json', write: () => undefined }));

describe('parseLogSpec', () => {
  it('reads a default level and stage=level pairs', () => {
    expect(parseLogSpec('crawl=debug,rank=info')).toEqual({ stages: { crawl: 'debug', rank: 'info' } });
    expect(parseLogSpec('warn, retrieve=DEBUG')).toEqual({ level: 'warn', stages: { retrieve: 'debug' } });
    expect(parseLogSpec('')).toEqual({ stages: {} });
  });

  it('names a wrong stage or level and lists the right ones', () => {
    expect(() => parseLogSpec('crawler=debug')).toThrow(UsageError);
    expect(() => parseLogSpec('crawler=debug')).toThrow(/stage "crawler".*crawl, extract, chunk/);
    expect(() => parseLogSpec('crawl=loud')).toThrow(/level "loud".*trace, debug, info/);
    expect(() => parseLogSpec('a=b=c')).toThrow(/stage=level/);
  });
});

describe('logger', () => {
  it('is silent until configured, so a library user gets no output', () => {
    const lines: string[] = [];
    logger('crawl').error('nobody hears this');
    configureLogging({ level: 'info', stages: {}, format: 'json', write: (line) => lines.push(line) });
    logger('crawl').info('now heard');
    expect(lines).toHaveLength(1);
  });

  it('gives each stage its own level: the default, or the one named for it', () => {
    const lines: string[] = [];
    configureLogging({ level: 'warn', stages: { crawl: 'debug', rank: 'silent' }, format: 'json', write: (line) => lines.push(line) });
    logger('crawl').debug({ url: 'https://a.example/' }, 'fetched');
    logger('retrieve').info('not at warn');
    logger('retrieve').warn('a fallback');
    logger('rank').error('silenced');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.map(({ stage, msg, level }) => ({ stage, msg, level }))).toEqual([
      { stage: 'crawl', msg: 'fetched', level: 20 },
      { stage: 'retrieve', msg: 'a fallback', level: 40 },
    ]);
    expect(records[0]?.['url']).toBe('https://a.example/');
  });

  it('writes one readable line a record in text format, with its stage and fields', () => {
    const lines: string[] = [];
    configureLogging({ level: 'debug', stages: {}, format: 'text', write: (line) => lines.push(line), paint: (level, text) => `<${level}>${text}` });
    logger('select').info({ selected: 3, tokens: 812, reason: 'a b' }, 'selection made');
    expect(lines).toEqual(['citedocs: <info>info [select] selection made selected=3 tokens=812 reason="a b"\n']);
  });
});
