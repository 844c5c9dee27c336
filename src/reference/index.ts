export { startReferenceSite } from './start-reference-site.js';
export type {
  ReferenceCredentials,
  ReferenceOptions,
  ReferenceSite,
} from './start-reference-site.js';
export type { ItemFields, ReferenceControl, SiteFile } from './control.js';
export { parseFaults } from './faults.js';
export type { FaultSpec } from './faults.js';
export type { RequestLogEntry } from './site-state.js';
export type { ContentType, StoredItem, StoredRevision, MediaInfo } from './store.js';
