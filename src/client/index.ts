export { CmsClient } from './cms-client.js';
export type {
  ClientStats,
  CmsResponse,
  Download,
  DownloadOptions,
  ListPage,
  RequestOptions,
  ResponseHeaders,
} from './cms-client.js';
export { clientOptionsFor } from './settings-options.js';
export { resolveClientOptions, DEFAULT_MAX_BODY_BYTES, DEFAULT_USER_AGENT } from './options.js';
export type { ClientEvent, ClientOptions, Credentials, ResolvedClientOptions } from './options.js';
export { basicAuthHeader, credentialRefusal, verifyCredentials } from './auth.js';
export type { CredentialNames, VerifyOptions } from './auth.js';
export {
  SiteIndex,
  checkNeeds,
  discoverSite,
  parseSiteIndex,
  DEFAULT_BATCH_MAX_ITEMS,
  DEFAULT_PER_PAGE_MAX,
} from './route-discovery.js';
export type {
  ArgDescriptor,
  RouteDescriptor,
  RouteEndpoint,
  RouteNeed,
} from './route-discovery.js';
export { batchBody, parseBatchResult } from './batch.js';
export type { BatchRequest, BatchResult, BatchSubResponse, BatchValidation } from './batch.js';
export { encodeQuery } from './query.js';
export type { Query, QueryValue, QueryScalar } from './query.js';
export { redactUrl } from './redact.js';
export { checkCredentialTransport, isLoopbackHost } from './transport-guard.js';
export {
  hasNextPage,
  parseLinkHeader,
  walkBound,
  MAX_LIST_ITEMS,
  PAGE_SLACK,
} from './pagination.js';
export type { WalkBound } from './pagination.js';
export type { WalkOptions } from './page-walk.js';
export { createRetryInterceptor } from './retry-interceptor.js';
export { AttemptTimeoutError } from './response-attempt.js';
export type {
  CmsDispatchExtras,
  CmsDispatchOptions,
  RetryInterceptorSettings,
} from './retry-interceptor.js';
export { parseRetryAfter, retryDelay } from './retry-policy.js';
