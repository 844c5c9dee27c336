import { MIGRATE_ORDER } from '../collections.js';
import type { Credentials } from '../config/settings.js';
import type { HttpSettings } from '../config/pipeline-schema.js';
import type { MigrateConflict, ConflictPolicy } from './conflicts.js';
import type { MigrateType } from './planner.js';
import type { SeoReport } from './seo.js';

/** What `migrate` is asked to do, and what it answers. */

export interface MigrateOptions {
  /** The source cache (`id_map` rows are written into it). */
  readonly fromCache: string;
  readonly fromLang: string;
  /** Base URL of the target site. */
  readonly to: string;
  readonly toLang: string;
  readonly credentials: Credentials | undefined;
  readonly http?: Partial<HttpSettings>;
  /** Read the target and print the plan (conflicts included), create nothing. @default false */
  readonly dryRun?: boolean;
  /** What to do with a person's item that has the slug of an item to create. @default 'stop' */
  readonly onConflict?: ConflictPolicy;
  /** Send category and tag ids as they are (the target shares the source's terms). @default false */
  readonly keepTerms?: boolean;
  /** Names of the credential variables, for messages. @default CMS_USER / CMS_APP_PASSWORD */
  readonly credentialNames?: { readonly user: string; readonly password: string };
  /** Source author id → target author id. @default none (the target's importing user) */
  readonly authors?: ReadonlyMap<number, number>;
  /** Progress lines (one per created batch or media). */
  readonly onLine?: (line: string) => void;
}

export interface MigrateReport {
  created: Record<MigrateType, number>;
  /** Already in `id_map`. */
  skipped: number;
  /**
   * Found on the target as this migration's own copies (a killed run created them but did
   * not record them, or the cache lost its id_map): recorded, not created again.
   */
  recovered: number;
  /** A person's items taken as the copies (`onConflict: 'adopt'`). */
  adopted: number;
  /** A person's items with the slug of an item to create, and what was done about each. */
  conflicts: MigrateConflict[];
  /** Conflicts and `onConflict: 'stop'`: nothing was written to the target. */
  stopped: boolean;
  /**
   * Items of this run updated by the second pass: their links to items created after them
   * pointed at a path the target did not give those items.
   */
  relinked: number;
  failed: { type: MigrateType; sourceId: number; message: string }[];
  warnings: string[];
  /** The dry-run plan as text (also filled on a real run). */
  planText: string;
  /** Requests made to the target (batch calls count once). */
  requests: number;
  batches: number;
  seo: SeoReport | undefined;
}

export function emptyReport(): MigrateReport {
  return {
    // Keys in migration order: the JSON report lists them so.
    created: Object.fromEntries(MIGRATE_ORDER.map((type) => [type, 0])) as Record<
      MigrateType,
      number
    >,
    skipped: 0,
    recovered: 0,
    adopted: 0,
    conflicts: [],
    stopped: false,
    relinked: 0,
    failed: [],
    warnings: [],
    planText: '',
    requests: 0,
    batches: 0,
    seo: undefined,
  };
}
