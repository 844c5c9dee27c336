import type { Localized } from './localized.js';

/**
 * The argument / field schema shared by the route table (published in the index), the
 * request validator and the response serializer, so that what the index announces is exactly
 * what the server enforces.
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null';
export type ContextName = 'view' | 'edit' | 'embed';

/** One validation problem, as it appears under `data.details.{param}` of rest_invalid_param. */
export interface Issue {
  readonly code: string;
  readonly message: string;
  readonly data: unknown;
}

/** What a check hook may look at besides the value. */
export interface CheckContext {
  readonly authenticated: boolean;
}

export interface ArgSchema {
  readonly type?: JsonType | readonly JsonType[];
  readonly title?: string;
  readonly description?: Localized;
  readonly default?: unknown;
  readonly required?: boolean;
  readonly enum?: readonly (string | number)[];
  readonly minimum?: number;
  readonly maximum?: number;
  readonly format?: 'date-time' | 'uri' | 'email';
  readonly pattern?: string;
  readonly items?: ArgSchema;
  readonly properties?: Readonly<Record<string, ArgSchema>>;
  readonly additionalProperties?: boolean | ArgSchema;
  readonly oneOf?: readonly ArgSchema[];
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly uniqueItems?: boolean;
  /** Response field only: the contexts in which the field appears. */
  readonly context?: readonly ContextName[];
  /** Response field only: the field cannot be written. */
  readonly readonly?: boolean;
  /**
   * Internal, never published: a check after type coercion that needs the request (e.g. a
   * status only editors may list). Returns the issue to report, or undefined.
   */
  readonly check?: (value: unknown, context: CheckContext) => Issue | undefined;
  /** Internal, never published: `title`/`content`/`excerpt` accept a bare string for `raw`. */
  readonly rawOrObject?: boolean;
}

export type ArgMap = Readonly<Record<string, ArgSchema>>;

/** The schema keywords the index publishes for an argument (internal hooks are left out). */
export const PUBLISHED_KEYWORDS = [
  'type',
  'title',
  'description',
  'default',
  'enum',
  'minimum',
  'maximum',
  'format',
  'pattern',
  'items',
  'properties',
  'additionalProperties',
  'oneOf',
  'minItems',
  'maxItems',
  'uniqueItems',
] as const;
