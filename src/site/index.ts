export { buildFromModel, canSkipBuild } from './build-site.js';
export type { BuildOptions, BuildPhases, BuildReport } from './build-site.js';
export { modelFromStore } from './model-from-store.js';
export type { ModelFromStore, ModelFromStoreOptions } from './model-from-store.js';
export { identityFromSeo } from './site-identity.js';
export { isPublicEntry } from './site-model.js';
export type {
  ChangeSet,
  Entry,
  FeaturedImage,
  MediaFile,
  PageEntry,
  PostEntry,
  SiteIdentity,
  SiteLanguage,
  SiteModel,
} from './site-model.js';
export {
  isCurrentManifest,
  readManifestFile,
  writeManifestFile,
  MANIFEST_VERSION,
} from './build-manifest.js';
export type { BuildManifest, ManifestFile } from './build-manifest.js';
export {
  checkedSitePath,
  safeOutputPath,
  safeRelativeFile,
  siteFilePath,
} from './safe-output-path.js';
export { defaultTemplatesDir } from './templates-dir.js';
export { BUILD_VERSION } from './site-plan.js';
export type * from './template-data.js';
