/**
 * The keys of a pull's counters, in the order its summary lists them, spelled out here (not
 * imported from `src/`) so that the tests that check them are an oracle of their own: the first
 * eight are the ones the README documents, the rest follow.
 */
export const DOCUMENTED_COUNTER_KEYS = [
  'requests',
  'created',
  'updated',
  'deleted',
  'unchanged',
  'revisions',
  'media_bytes',
  'seconds',
] as const;

export const PULL_COUNTER_KEYS = [
  ...DOCUMENTED_COUNTER_KEYS,
  'skipped',
  'media_files',
  'media_refused',
  'errors',
  'embeds',
] as const;
