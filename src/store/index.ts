export { openStore, openStoreWith } from './open-store.js';
export { openStoreToRead } from './upgraded-copy.js';
export type { ReadableStore } from './upgraded-copy.js';
export { Store } from './store.js';
export type { StoreOptions } from './store-options.js';
export { SCHEMA_UPGRADES, SCHEMA_VERSION, APPLICATION_ID } from './schema.js';
export type { SchemaUpgrade } from './schema-step.js';
export { runSchemaUpgrades } from './schema-upgrade.js';
export type { SchemaUpgradeReport } from './schema-upgrade.js';
export type { BackupResult } from './backup.js';
export { canonicalJson, contentHash, sha256Hex } from './canonical-json.js';
export { deriveItemColumns } from './item-columns.js';
export type { ItemColumns } from './item-columns.js';
export { plainText, decodeEntities } from './plain-text.js';
export { ITEM_TYPES } from './types.js';
export type {
  CmsItem,
  FetchContext,
  ItemType,
  ItemUpsertOutcome,
  ParentType,
  UpsertOutcome,
  UpsertResult,
} from './types.js';
export { ItemsRepo } from './items-repo.js';
export type {
  ItemFilter,
  ItemIdStatus,
  IterateItemsOptions,
  UpsertItemsOptions,
} from './items-repo.js';
export { ItemVersionsRepo } from './item-versions-repo.js';
export type { ItemVersion } from './item-versions-repo.js';
export type { StoredItem } from './item-rows.js';
export { RevisionsRepo } from './revisions-repo.js';
export type { StoredRevision } from './revisions-repo.js';
export { MediaRepo } from './media-repo.js';
export type { StoredMediaFile, MediaFileInput, PutBlobResult } from './media-repo.js';
export { OembedRepo } from './oembed-repo.js';
export type { OembedEntry, OembedGetOptions } from './oembed-repo.js';
export { SyncStateRepo } from './sync-state-repo.js';
export type { SyncState, SyncStatePatch } from './sync-state-repo.js';
export { SiteInfoRepo } from './site-info-repo.js';
export type { SiteInfo } from './site-info-repo.js';
export { CheckoutsRepo } from './checkouts-repo.js';
export type { Checkout, CheckoutInput } from './checkouts-repo.js';
export { EditsRepo } from './edits-repo.js';
export type { Edit, EditFilter, EditInput, EditPatch, EditState } from './edits-repo.js';
export { IdMapRepo } from './id-map-repo.js';
export type { IdMapping, IdMapSetOutcome } from './id-map-repo.js';
export { RestoreMapRepo } from './restore-map-repo.js';
export type { RestoreMapping } from './restore-map-repo.js';
export { RunsRepo } from './runs-repo.js';
export type { Run, RunStatus } from './runs-repo.js';
export { TransformedRepo } from './transformed-repo.js';
export { PublishedOrderReader } from './published-order.js';
export type { PublishedEntryRow, PublishedOrder } from './published-order.js';
export type { StaleOptions, Transformed, TransformedInput } from './transformed-repo.js';
export { BuildOutputsRepo } from './build-outputs-repo.js';
export type { BuildOutput, BuildOutputInput } from './build-outputs-repo.js';
export { SyncQueueRepo } from './sync-queue-repo.js';
export type { SyncQueueCount, SyncTask } from './sync-queue-repo.js';
export { BuildStateRepo } from './build-state-repo.js';
export { BuildPlacementRepo } from './build-placement-repo.js';
export { NunjucksCompilesRepo } from './nunjucks-compiles-repo.js';
export type { PlacementChange, PlacementPosts, SavedPlacement } from './build-placement-repo.js';
export type { BuildManifestRecord, SavedBuild } from './build-state-repo.js';
