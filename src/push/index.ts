export {
  checkoutPath,
  fieldsFromItem,
  fileSafeSlug,
  locateCheckoutFile,
  parseCheckout,
  serializeCheckout,
  CHECKOUT_TYPES,
  EDITABLE_FIELDS,
  MARKER_FIELDS,
} from './checkout-file.js';
export type { CheckoutDocument, CheckoutType, EditableFields } from './checkout-file.js';
export { checkout } from './checkout.js';
export {
  isRemoteCopy,
  remoteCopyOf,
  resolveConflict,
  writeRemoteCopies,
  writeRemoteCopiesIn,
  REMOTE_COPY_SUFFIX,
} from './remote-copies.js';
export type { CheckoutOptions, CheckoutSummary } from './checkout.js';
export { changedFields } from './edit-diff.js';
export { validateEdit, checkValue, isDateTime } from './validate-edit.js';
export type {
  ArgDescriptors,
  EditProblem,
  EditValidation,
  ValidateEditOptions,
} from './validate-edit.js';
export { planBatches, BATCH_LIMIT } from './batch-planner.js';
export type { BatchChunk, BatchPlan, PlannedEdit } from './batch-planner.js';
export { interpretBatchResult, siteError, NOT_RUN_MESSAGE } from './batch-result.js';
export type { SubFailure, SubOutcome, SubSuccess } from './batch-result.js';
export { chunkIds, describeConflict, findConflicts } from './conflicts.js';
export type { Conflict, EditBase } from './conflicts.js';
export { recordDeletes, recordFileEdits, listItemFiles, TRASH_FIELDS } from './record-edits.js';
export type { RecordEditsOptions, RecordEditsSummary } from './record-edits.js';
export { emptyPushSummary, sendQueuedEdits } from './push.js';
export { labelOf } from './queued-edit.js';
export type { PushFailure, PushOptions, PushSummary } from './push.js';
export { runPush, countersOf, requirePushCredentials } from './run-push.js';
export type { RunPushOptions, RunPushReport } from './run-push.js';
export { openSiteSession, PUSH_NEEDS } from './site-session.js';
export type { OpenSessionOptions, SiteSession } from './site-session.js';
export { fetchRemoteModified } from './remote-modified.js';
