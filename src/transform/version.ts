/**
 * The version of what transform produces. The cache keys transformed HTML by it, so bump it
 * whenever a change to any plugin or to the processor changes the HTML out for the same HTML
 * in: every item is then transformed again on the next run, and only then.
 * 4: bodies are sanitised (rehype-sanitize-body.ts).
 */
export const TRANSFORM_VERSION = 4;

/** The settings that change what transform produces for the same item (pipeline `transform:`). */
export interface TransformSettings {
  /** Remove executable content from bodies. @default true */
  readonly sanitize?: boolean;
}

/**
 * The key transformed HTML is stored under: the version plus every setting that changes the
 * output, so that changing `transform.sanitize` transforms every cached item again.
 */
export function transformKey(settings: TransformSettings = {}): string {
  return settings.sanitize === false
    ? `${TRANSFORM_VERSION}-unsanitized`
    : String(TRANSFORM_VERSION);
}
