/**
 * The site placed for an edit build: as the last build placed it when its record fits the
 * edits (`stored-placement.ts`: a few posts read, the plan's own search bundles indexed at
 * once), else in full from the model with every post held (a guess of the bundles indexed
 * first). Also where the sitemap to patch comes from: the last build's file, when its bytes
 * are still the recorded ones.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PlacementChange, Store } from '../store/index.js';
import { withCheckedPublicUrl } from './build-site.js';
import type { BuildWorkers } from './build-workers.js';
import { sha256 } from './digest.js';
import { placedAhead, searchAhead, type SearchAhead } from './edit-search.js';
import type { EditedPosts } from './output-formats.js';
import { placeSite, type PlacedSite } from './site-plan.js';
import type { SiteModel } from './site-model.js';
import {
  newestRecord,
  placedFromRecord,
  placementRecord,
  type RecordedPlacement,
} from './stored-placement.js';

/**
 * The language's model as the edit build asks for it: with its posts read a window at a time
 * when the recorded placement fits (a few posts are read), else with every post held (the
 * search bundle guessed ahead reads them).
 */
export interface EditModels {
  streamed(): SiteModel;
  whole(): SiteModel;
  /** The placement the last build recorded (`stored-placement.ts`), when it is that build's. */
  placement: RecordedPlacement | undefined;
}

export interface EditPlacement {
  placed: PlacedSite;
  /** The search bundles being indexed already, if any. */
  ahead: SearchAhead | undefined;
  /** The edited posts and the last build's files, when placed as it placed them. */
  edited: EditedPosts | undefined;
  /** What to record of this placement: without the posts' record when it is the recorded one. */
  change(): PlacementChange;
}

export function placeForEdit(
  store: Store,
  models: EditModels,
  changed: ReadonlySet<string>,
  options: {
    lang: string;
    outDir: string;
    postsPerPage?: number | undefined;
    templatesHash: string;
    workers: BuildWorkers;
    /** No bundle indexed ahead (`watch`: the page waits for nothing of the search). */
    pagesFirst?: boolean | undefined;
  },
): EditPlacement {
  const planOptions = { postsPerPage: options.postsPerPage, templatesHash: options.templatesHash };
  const recorded =
    models.placement &&
    placedFromRecord(
      withCheckedPublicUrl(models.streamed()),
      models.placement,
      changed,
      planOptions,
    );
  if (recorded !== undefined) {
    const { placed } = recorded;
    return {
      placed,
      ahead: options.pagesFirst ? undefined : placedAhead(placed, changed, options.workers),
      edited: { indexes: recorded.edited, bytes: (file) => recordedBytes(store, options, file) },
      change: () => ({ newest: newestRecord(placed.posts) }),
    };
  }
  const model = withCheckedPublicUrl(models.whole());
  // Started before the site is placed: Pagefind takes longer than placing, planning and
  // rendering.
  const ahead = options.pagesFirst ? undefined : searchAhead(model, changed, options.workers);
  const placed = placeSite(model, planOptions);
  return { placed, ahead, edited: undefined, change: () => placementRecord(placed) };
}

/**
 * A file as the last build wrote it, when it is still so on disk (its bytes' digest is the
 * recorded one); undefined otherwise.
 */
function recordedBytes(
  store: Store,
  options: { lang: string; outDir: string },
  file: string,
): Buffer | undefined {
  const row = store.buildState.fileAt(options.lang, file);
  if (row === undefined) return undefined;
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path.join(options.outDir, file));
  } catch {
    return undefined;
  }
  return sha256(bytes) === row.hash ? bytes : undefined;
}
