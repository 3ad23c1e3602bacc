import { describe, expect, it } from 'vitest';
import { redactPasswords } from './redact.js';

describe('redactPasswords', () => {
  it('hides the password of a database URL and keeps the rest', () => {
    expect(redactPasswords('postgres://reader:s3cret@db.internal:5432/docs')).toBe('postgres://reader:***@db.internal:5432/docs');
    expect(redactPasswords('postgresql://reader:p%40ss@127.0.0.1/docs?sslmode=require')).toBe('postgresql://reader:***@127.0.0.1/docs?sslmode=require');
  });

  it('hides a password that holds a raw @ or :, up to the host', () => {
    expect(redactPasswords('postgres://reader:p@ss:w@rd@db/docs')).toBe('postgres://reader:***@db/docs');
  });

  it('hides every URL quoted in a message, and a password given as a query parameter', () => {
    expect(redactPasswords('No citedocs index in postgres://a:one@h/x. Run `citedocs migrate --db postgres://a:one@h/x` first.')).toBe(
      'No citedocs index in postgres://a:***@h/x. Run `citedocs migrate --db postgres://a:***@h/x` first.',
    );
    expect(redactPasswords('postgres://a@h/x?user=a&password=two&sslmode=disable')).toBe('postgres://a@h/x?user=a&password=***&sslmode=disable');
  });

  it('leaves URLs without a password, file paths and plain text as they are', () => {
    for (const text of ['postgres://citedocs@127.0.0.1:5432/postgres', './citedocs.db', '/var/lib/citedocs/index.db', 'see https://docs.example/a:b', 'ratio 3:4 at noon']) {
      expect(redactPasswords(text)).toBe(text);
    }
  });
});
