/**
 * An item's transform, current for what the cache holds of it (this transform version, the
 * item's content hash), put straight into the cache: a test of the model or the plan sets the
 * HTML and site path it wants without running the transform.
 */
import type { Store } from '../../../src/store/index.js';
import { TRANSFORM_VERSION } from '../../../src/transform/version.js';

export interface StoredTransform {
  lang: string;
  type: 'posts' | 'pages';
  id: number;
  html: string;
  excerpt?: string;
  sitePath: string;
}

export function storeTransform(store: Store, transform: StoredTransform): void {
  const { lang, type, id, html, excerpt, sitePath } = transform;
  const item = store.items.get(lang, type, id);
  if (item === undefined) throw new Error(`No ${lang}/${type}/${id} in the cache to transform.`);
  store.transformed.put({
    lang,
    type,
    id,
    transformVersion: String(TRANSFORM_VERSION),
    sourceHash: item.contentHash,
    html,
    ...(excerpt !== undefined ? { excerpt } : {}),
    meta: { sitePath },
  });
}
