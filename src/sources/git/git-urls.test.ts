import { describe, expect, it } from 'vitest';
import { UsageError } from '../../core/errors.js';
import { gitBaseUrl, versionFromTag } from './git-urls.js';

describe('versionFromTag', () => {
  it.each([
    ['v5.0.1', '5.0.1'],
    ['5.0.1', '5.0.1'],
    ['V2', '2'],
    ['release-2.1', '2.1'],
    ['widget@1.2.0', '1.2.0'],
    ['docs/v3.0', '3.0'],
    ['v1.0.0-rc.1', '1.0.0-rc.1'],
    ['stable', 'stable'],
  ])('reads the version of tag %s as %s', (tag, version) => {
    expect(versionFromTag(tag)).toBe(version);
  });
});

describe('gitBaseUrl', () => {
  const local = { location: '/srv/widget', remote: false, revision: 'v1.0', version: '1.0', docsPath: 'docs', revisions: 2 };

  it('names a local repository, the tag and the docs folder in a git+file URL, one per version', () => {
    expect(gitBaseUrl(local)).toEqual({ baseUrl: 'git+file:///srv/widget@v1.0/docs/', fileUrls: true });
    expect(gitBaseUrl({ ...local, docsPath: '.' }).baseUrl).toBe('git+file:///srv/widget@v1.0/');
  });

  it('points a GitHub or GitLab repository at the pages those sites render for the files at the tag', () => {
    expect(gitBaseUrl({ ...local, location: 'https://github.com/acme/widget.git', remote: true }).baseUrl).toBe('https://github.com/acme/widget/blob/v1.0/docs/');
    expect(gitBaseUrl({ ...local, location: 'https://gitlab.com/acme/tools/widget', remote: true }).baseUrl).toBe('https://gitlab.com/acme/tools/widget/-/blob/v1.0/docs/');
    expect(gitBaseUrl({ ...local, location: 'git@example.com:acme/widget.git', remote: true }).baseUrl).toBe('git+ssh://git@example.com/acme/widget.git@v1.0/docs/');
  });

  it('fills {version} and {tag} into --base-url, and refuses one that would give every version the same URLs', () => {
    expect(gitBaseUrl({ ...local, baseUrl: 'https://widget.example/docs/{version}' })).toEqual({ baseUrl: 'https://widget.example/docs/1.0/', fileUrls: false });
    expect(gitBaseUrl({ ...local, baseUrl: 'https://widget.example/{tag}/' }).baseUrl).toBe('https://widget.example/v1.0/');
    expect(() => gitBaseUrl({ ...local, baseUrl: 'https://widget.example/docs/' })).toThrow(UsageError);
    expect(() => gitBaseUrl({ ...local, baseUrl: 'https://widget.example/docs/' })).toThrow(/Put \{version\}/);
    expect(gitBaseUrl({ ...local, revisions: 1, baseUrl: 'https://widget.example/docs/' }).baseUrl).toBe('https://widget.example/docs/');
  });
});
