import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { DEFAULT_MAX_BODY_BYTES as CLIENT_MAX_BODY } from '../../../src/client/index.js';
import { DEFAULT_MAX_BODY_BYTES, pipelineSchema } from '../../../src/config/pipeline-schema.js';
import { pipelineText, writePipelineFile } from '../../../src/config/pipeline-writer.js';
import { resolveSettings } from '../../../src/config/settings.js';

describe('pipelineText', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cms-mirror-writer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads back through resolveSettings with the site, the languages and every default', () => {
    const file = join(dir, 'pipeline.yaml');
    writeFileSync(file, pipelineText({ site: 'http://127.0.0.1:8787', languages: ['pl', 'es'] }));
    const settings = resolveSettings({ pipeline: file }, {}, '/');
    const defaults = pipelineSchema.parse({});
    expect(settings.site).toBe('http://127.0.0.1:8787');
    expect(settings.languages).toEqual(['pl', 'es']);
    expect(settings.cache).toBe(join(dir, 'cache/cms-mirror.sqlite'));
    expect(settings.output).toBe(join(dir, 'output'));
    expect(settings.templates).toBeUndefined();
    expect(settings.backup).toBe(defaults.backup);
    expect(settings.http).toEqual({
      ...defaults.http,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      retryAfterMaxMs: 60_000,
      allowInsecure: false,
    });
    expect(settings.transform).toEqual(defaults.transform);
    expect(settings.media).toEqual(defaults.media);
    expect(settings.build).toEqual(defaults.build);
    expect(settings.push).toEqual({ ...defaults.push, dir: join(dir, 'content') });
    expect(settings.credentialNames).toEqual({ user: 'CMS_USER', password: 'CMS_APP_PASSWORD' });
  });

  it('every setting the schema knows is written (or shown commented out), each under a comment with its default', () => {
    const text = pipelineText({ site: 'https://example.org', languages: ['pl'] });
    const lines = text.split('\n');
    const keyLines = lines
      .map((line, index) => ({ line, index }))
      .filter(({ line }) => /^\s*(?:# )?[a-zA-Z]+:(?: |$)/.test(line) && !/^\s*# [A-Z]/.test(line));
    const written = new Set(
      keyLines.map(({ line }) => line.replace(/^\s*(?:# )?/, '').split(':')[0]),
    );
    const shape = pipelineSchema.shape;
    for (const key of Object.keys(shape)) expect(written, key).toContain(key);
    for (const section of [
      'auth',
      'http',
      'media',
      'pull',
      'build',
      'transform',
      'push',
    ] as const) {
      const inner = (
        shape[section]._zod.def.innerType as unknown as { shape: Record<string, unknown> }
      ).shape;
      for (const key of Object.keys(inner)) expect(written, `${section}.${key}`).toContain(key);
    }
    // Every leaf setting has a comment right above it that states its default.
    for (const { line, index } of keyLines) {
      if (/^(auth|http|media|pull|build|transform|push):$/.test(line.trim())) continue;
      let above = index - 1;
      const comment: string[] = [];
      while (above >= 0 && /^\s*# /.test(lines[above]!) && !/^\s*# [a-z]+:/.test(lines[above]!)) {
        comment.unshift(lines[above]!);
        above -= 1;
      }
      expect(comment.join(' '), line).toMatch(/Default:|Required\./);
    }
  });

  it('carries no credentials, only the advice where they go', () => {
    const text = pipelineText({ site: 'https://example.org', languages: ['pl'] });
    expect(text).toContain('CMS_USER=<user name>  CMS_APP_PASSWORD=<application password>');
    const data = parseYaml(text) as Record<string, unknown>;
    expect(JSON.stringify(data)).not.toMatch(/password"\s*:\s*"(?!CMS_APP_PASSWORD)/i);
    expect(Object.keys(data)).not.toContain('credentials');
  });

  it('without site and languages it still loads, with both left to fill in', () => {
    const file = join(dir, 'blank.yaml');
    writeFileSync(file, pipelineText());
    expect(readFileSync(file, 'utf8')).toContain('# site: https://example.org');
    const settings = resolveSettings({ pipeline: file }, {}, '/');
    expect(settings.site).toBeUndefined();
    expect(settings.languages).toEqual([]);
  });

  it('the default body limit is the client default', () => {
    expect(DEFAULT_MAX_BODY_BYTES).toBe(CLIENT_MAX_BODY);
  });
});

describe('writePipelineFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cms-mirror-writer-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('never replaces an existing file without force; with force it does', () => {
    const file = join(dir, 'p.yaml');
    writeFileSync(file, 'mine: true\n');
    expect(() => writePipelineFile(file, 'new\n')).toThrow(
      expect.objectContaining({ code: 'E_CONFIG', exitCode: 2, file }),
    );
    expect(readFileSync(file, 'utf8')).toBe('mine: true\n');
    writePipelineFile(file, 'new\n', { force: true });
    expect(readFileSync(file, 'utf8')).toBe('new\n');
  });

  it('names the file when it cannot be written', () => {
    const file = join(dir, 'missing-dir', 'p.yaml');
    expect(() => writePipelineFile(file, 'x')).toThrow(
      /missing-dir\/p\.yaml: cannot write the pipeline file \(ENOENT\)/,
    );
  });
});
