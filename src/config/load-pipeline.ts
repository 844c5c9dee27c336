import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { ConfigError } from '../errors.js';
import { pipelineSchema, type PipelineFile } from './pipeline-schema.js';
import { readPlainYaml } from './plain-yaml.js';
import { yamlModule } from './yaml-module.js';

/** Reads and validates a pipeline file (YAML or JSON). Every problem is reported in one error. */
export function loadPipelineFile(file: string): PipelineFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'unreadable';
    throw new ConfigError(`${file}: ${reason}`, { file }, { cause: error });
  }
  return parsePipelineText(text, file);
}

export function parsePipelineText(text: string, file: string): PipelineFile {
  const json = file.endsWith('.json');
  let raw: unknown;
  try {
    raw = json ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    // A YAML error comes from the package, so it is loaded by then.
    const yamlError = !json && error instanceof yamlModule().YAMLParseError ? error : undefined;
    const where = yamlError?.linePos ? ` at line ${yamlError.linePos[0].line}` : '';
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new ConfigError(
      `${file}: not valid ${json ? 'JSON' : 'YAML'}${where}: ${reason}`,
      { file },
      { cause: error },
    );
  }
  if (raw === null || raw === undefined) raw = {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ConfigError(`${file}: expected a mapping of settings at the top level`, { file });
  }
  const result = pipelineSchema.safeParse(raw);
  if (!result.success) throw configErrorFromIssues(file, result.error.issues);
  return result.data;
}

/** The plain YAML most pipeline files are written in is read without the `yaml` package. */
function parseYaml(text: string): unknown {
  const plain = readPlainYaml(text);
  return plain ? plain.value : yamlModule().parse(text);
}

export function configErrorFromIssues(
  file: string,
  issues: readonly z.core.$ZodIssue[],
): ConfigError {
  const problems = issues.map((issue) => describeIssue(issue));
  const first = issues[0];
  const field = first ? fieldName(first) : undefined;
  return new ConfigError(`${file}: ${problems.join('; ')}`, { file, ...(field ? { field } : {}) });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    const base = issue.path.length ? `${fieldName(issue)}.` : '';
    return issue.keys.map((key) => `unknown field "${base}${key}"`).join('; ');
  }
  const field = fieldName(issue);
  return `${field ? `field "${field}"` : 'the file'}: ${issue.message}`;
}

function fieldName(issue: z.core.$ZodIssue): string {
  return issue.path
    .map((part) => (typeof part === 'number' ? `[${part}]` : String(part)))
    .join('.')
    .replace(/\.\[/g, '[');
}

/** Paths in a pipeline file are relative to the file, so a pipeline works from any directory. */
export function resolveFromFile(file: string | undefined, value: string, cwd: string): string {
  return path.resolve(file ? path.dirname(path.resolve(cwd, file)) : cwd, value);
}
