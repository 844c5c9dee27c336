import type { ArgDescriptor } from '../client/index.js';

/**
 * Local validation of an edit against the route descriptor's args from the site index, so a
 * push with a typo sends nothing and lists every problem at once (changesets-style: collect,
 * then report). The site stays the final judge; this only catches what the descriptor states.
 */

/** One argument descriptor as the index gives it (the spec's list of keys). */
export type { ArgDescriptor };

export type ArgDescriptors = Readonly<Record<string, ArgDescriptor>>;

export interface EditProblem {
  readonly file: string;
  readonly field: string;
  readonly message: string;
}

export interface EditValidation {
  readonly errors: EditProblem[];
  readonly warnings: EditProblem[];
}

export interface ValidateEditOptions {
  /** The file (or edit label) problems are reported against. */
  readonly file: string;
  /** The write body that would be sent. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Args of the route's write endpoint (POST create, or POST/PUT/PATCH update). */
  readonly args: ArgDescriptors;
  /** Creates must carry the required args; updates only what changed. */
  readonly mode: 'create' | 'update';
  /**
   * Skip `enum` checks, leaving them to the site (tests use it to prove the site refuses).
   * @default false
   */
  readonly skipEnum?: boolean;
}

/** Args that are route or query parameters, never body fields of an edit. */
const NOT_BODY = new Set(['id', 'context', 'force', 'password_query']);

/**
 * Fields the site exposes as `{raw, rendered}` objects but accepts as a plain string on
 * write (the raw value), as deployed servers do.
 */
const RAW_STRING_FIELDS = new Set(['title', 'content', 'excerpt', 'caption', 'description']);

export function validateEdit(options: ValidateEditOptions): EditValidation {
  const { file, fields, args } = options;
  const errors: EditProblem[] = [];
  const warnings: EditProblem[] = [];
  for (const [field, value] of Object.entries(fields)) {
    const arg = args[field];
    if (arg === undefined || NOT_BODY.has(field)) {
      errors.push({ file, field, message: `"${field}" is not a writable field of this route` });
      continue;
    }
    for (const message of checkValue(field, value, arg, options.skipEnum ?? false)) {
      errors.push({ file, field, message });
    }
  }
  if (options.mode === 'create') {
    for (const [field, arg] of Object.entries(args)) {
      if (arg.required === true && !NOT_BODY.has(field) && fields[field] === undefined) {
        errors.push({ file, field, message: `"${field}" is required to create an item` });
      }
    }
  }
  return { errors, warnings };
}

/** Every problem of one value against one descriptor (recursing into array items). */
export function checkValue(
  name: string,
  value: unknown,
  arg: ArgDescriptor,
  skipEnum = false,
): string[] {
  const types =
    arg.type === undefined ? [] : typeof arg.type === 'string' ? [arg.type] : [...arg.type];
  if (value === null) {
    return types.length === 0 || types.includes('null')
      ? []
      : [`${name} must not be null (expected ${types.join(' or ')})`];
  }
  if (types.length > 0) {
    const matching = types.filter((type) => matchesType(name, value, type));
    if (matching.length === 0)
      return [
        `${name} must be ${types.filter((t) => t !== 'null').join(' or ')}, got ${describe(value)}`,
      ];
  }
  const problems: string[] = [];
  if (!skipEnum && arg.enum !== undefined) {
    const allowed = arg.enum;
    const list = allowed.map(String).join(', ');
    if (Array.isArray(value)) {
      for (const item of value) {
        if (!allowed.includes(item))
          problems.push(`${name} must contain only ${list}, got ${describe(item)}`);
      }
    } else if (!allowed.includes(value)) {
      problems.push(`${name} must be one of ${list}, got ${describe(value)}`);
    }
  }
  if (typeof value === 'number') {
    if (arg.minimum !== undefined && value < arg.minimum)
      problems.push(`${name} must be at least ${arg.minimum}, got ${value}`);
    if (arg.maximum !== undefined && value > arg.maximum)
      problems.push(`${name} must be at most ${arg.maximum}, got ${value}`);
  }
  if (typeof value === 'string' && arg.format === 'date-time' && !isDateTime(value)) {
    problems.push(
      `${name} must be a date-time such as 2024-03-14T10:00:00, got ${describe(value)}`,
    );
  }
  const items = arg.items;
  if (
    Array.isArray(value) &&
    typeof items === 'object' &&
    items !== null &&
    !Array.isArray(items)
  ) {
    value.forEach((item, index) =>
      problems.push(...checkValue(`${name}[${index}]`, item, items as ArgDescriptor, skipEnum)),
    );
  }
  return problems;
}

function matchesType(name: string, value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return (
        (typeof value === 'object' && value !== null && !Array.isArray(value)) ||
        (typeof value === 'string' && RAW_STRING_FIELDS.has(name))
      );
    case 'null':
      return value === null;
    default:
      // A type we do not know (a future schema keyword): let the site decide.
      return true;
  }
}

/** ISO 8601 date-time as the interface accepts it: seconds required, offset optional. */
export function isDateTime(value: string): boolean {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?$/.exec(
      value,
    );
  if (!match) return false;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo! - 1 &&
    date.getUTCDate() === d &&
    h! < 24 &&
    mi! < 60 &&
    s! < 60
  );
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object' && value !== null) return 'a mapping';
  return JSON.stringify(value);
}
