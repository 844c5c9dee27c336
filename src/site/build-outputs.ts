/**
 * Every file of a build besides the rendered pages and the search index, as outputs for the
 * writer: pages kept as they are, the theme's own pages, the files the build makes itself (the
 * output formats and media) and the theme's assets. A file whose input did not change and is
 * on disk is kept without reading its content.
 */
import fs from 'node:fs';
import { digestOf } from './digest.js';
import type { OutputSpec } from './output-writer.js';
import { SEARCH_DIR } from './search-plan.js';
import { ASSETS_DIR, type SitePlan } from './site-plan.js';
import type { KnownOutput } from './staged-writes.js';
import type { TemplatesScan } from './template-files.js';

/** The output is current when the last build made it from the same input and it is on disk. */
export function isCurrent(known: KnownOutput, file: string, input: string): boolean {
  return known.before.get(file)?.input === input && known.onDisk.has(file);
}

/**
 * The theme's own pages (a template that does not paginate over jobs): those just rendered,
 * unless they would take a file the build writes itself (a warning each), or, when nothing
 * was rendered, those of the last build still on disk.
 */
export function themePages(
  extras: ReadonlyMap<string, string> | undefined,
  context: { plan: SitePlan; templates: TemplatesScan; known: KnownOutput },
  warnings: string[],
): OutputSpec[] {
  const { plan, known } = context;
  const input = digestOf('extras', plan.siteDigest);
  const outputs: OutputSpec[] = [];
  if (extras === undefined) {
    // Rendered only with the jobs; kept while nothing changed.
    for (const [file, entry] of known.before) {
      if (entry.input === input && known.onDisk.has(file)) outputs.push({ file, input });
    }
    return outputs;
  }
  const planned = new Set([
    ...plan.files.map((file) => file.file),
    ...context.templates.assets.map((asset) => asset.file),
  ]);
  // The jobs' files walked once for the few extras, not gathered in a set of every page.
  if (extras.size > 0) for (const job of plan.jobs) if (extras.has(job.file)) planned.add(job.file);
  for (const [file, content] of extras) {
    if (
      planned.has(file) ||
      file.startsWith(`${ASSETS_DIR}/`) ||
      file.startsWith(`${SEARCH_DIR}/`)
    ) {
      warnings.push(`The theme's page ${file} left out: the build writes that file itself.`);
      continue;
    }
    outputs.push({ file, input, content });
  }
  return outputs;
}

/** The files the build makes itself (output formats, media), then the theme's assets. */
export function madeFiles(
  plan: SitePlan,
  templates: TemplatesScan,
  known: KnownOutput,
): OutputSpec[] {
  const outputs: OutputSpec[] = plan.files.map((file) => ({
    file: file.file,
    input: file.input,
    content: isCurrent(known, file.file, file.input) ? undefined : file.content,
  }));
  for (const asset of templates.assets) {
    outputs.push({
      file: asset.file,
      input: asset.sha256,
      content: isCurrent(known, asset.file, asset.sha256)
        ? undefined
        : () => fs.readFileSync(asset.source),
    });
  }
  return outputs;
}
