import type { SchemaUpgrade } from '../schema-step.js';

/**
 * `build_state.layout_digest`: a digest of where the last build placed every public item (the
 * order of the posts, their files, the pages' tree, the media files, the search bundles). A
 * run after a few edits whose layout digests the same rebuilds only the pages those edits touch
 * (`src/site/edit-build.ts`); null (an older build) means a full plan.
 */
export const upgrade013: SchemaUpgrade = {
  version: 13,
  description: 'build_state.layout_digest: where the last build placed each item',
  up(db) {
    db.exec('ALTER TABLE build_state ADD COLUMN layout_digest TEXT');
  },
};
