/**
 * The one rule for what may reach the public output: published, and not password-protected.
 * Drafts, pending, private, future and trashed items, and tombstones, never do.
 */
export interface PublicationFacts {
  readonly status: string | null;
  readonly deletedAt: string | null;
  readonly json: string;
}

export function isPublic(item: PublicationFacts): boolean {
  if (item.deletedAt !== null || item.status !== 'publish') return false;
  return !isProtected(parseItemJson(item.json));
}

/** Protected in view context (`content.protected`) or carrying a password in edit context. */
export function isProtected(json: Record<string, unknown>): boolean {
  const content = json.content as { protected?: unknown } | undefined;
  const excerpt = json.excerpt as { protected?: unknown } | undefined;
  if (content?.protected === true || excerpt?.protected === true) return true;
  return typeof json.password === 'string' && json.password !== '';
}

export function parseItemJson(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** `field.rendered` of an item field such as `content` or `excerpt`, or ''. */
export function renderedField(json: Record<string, unknown>, field: string): string {
  const value = json[field] as { rendered?: unknown } | undefined;
  return typeof value?.rendered === 'string' ? value.rendered : '';
}
