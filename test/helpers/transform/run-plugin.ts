/** Runs one transform plugin over an HTML fragment, as the exact-HTML tests need it. */
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import type { Root } from 'hast';
import type { VFile } from 'vfile';
import { ITEM_CONTEXT_KEY, type ItemContext } from '../../../src/transform/item-context.js';

type Transformer = (tree: Root, file?: VFile) => void;

export interface PluginRun {
  html: string;
  messages: string[];
}

/** `transformers` run in order between parse (fragment) and stringify. */
export function runPlugins(
  html: string,
  transformers: Transformer[],
  context?: ItemContext,
): PluginRun {
  const processor = unified()
    .use(rehypeParse, { fragment: true })
    .use(() => (tree: Root, file: VFile) => {
      for (const transformer of transformers) transformer(tree, file);
    })
    .use(rehypeStringify);
  const file = processor.processSync({ value: html, data: { [ITEM_CONTEXT_KEY]: context } });
  return { html: String(file), messages: file.messages.map((message) => message.reason) };
}
