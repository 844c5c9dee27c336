import type { ArgMap, ArgSchema, CheckContext, Issue, JsonType } from './arg-schema.js';
import { invalidParams, missingParams } from './rest-error.js';
import { isDateTime } from './site-dates.js';

/**
 * Validation and coercion of request parameters from the route table's schemas, following
 * the rules of servers of this interface: query strings coerce to the declared type
 * (`"5"` → 5, `"true"` → true, `"1,2"` → [1, 2]); violations produce the detail codes
 * clients see (`rest_invalid_type`, `rest_not_in_enum`, `rest_out_of_bounds`, ...).
 */
export type Validated = { ok: true; value: unknown } | { ok: false; issue: Issue };

const NUMERIC = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

function fail(code: string, message: string, data: unknown = null): Validated {
  return { ok: false, issue: { code, message, data } };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return undefined;
}

function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const lower = value.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
  }
  return undefined;
}

/** A comma/space separated list, a real array, or a PHP-style `{0: .., 1: ..}` object. */
function toList(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((part) => part !== '');
  if (typeof value === 'number' || typeof value === 'boolean') return [value];
  if (isPlainObject(value)) {
    const keys = Object.keys(value);
    if (keys.every((key) => /^\d+$/.test(key))) return keys.map((key) => value[key]);
  }
  return undefined;
}

function toObject(value: unknown): Record<string, unknown> | undefined {
  if (value === '') return {};
  if (Array.isArray(value) && value.length === 0) return {};
  return isPlainObject(value) ? value : undefined;
}

/** The first type of `types`, in the servers' priority order, that `value` can be read as. */
function bestType(value: unknown, types: readonly JsonType[]): JsonType | undefined {
  const order: JsonType[] = ['array', 'object', 'integer', 'number', 'boolean', 'string', 'null'];
  for (const type of order) {
    if (!types.includes(type)) continue;
    if (type === 'array' && toList(value) !== undefined) return type;
    if (type === 'object' && toObject(value) !== undefined) return type;
    if (type === 'integer' && Number.isInteger(toNumber(value))) return type;
    if (type === 'number' && toNumber(value) !== undefined) return type;
    if (type === 'boolean' && toBoolean(value) !== undefined) return type;
    if (type === 'string' && typeof value === 'string') return type;
    if (type === 'null' && value === null) return type;
  }
  return undefined;
}

function boundsMessage(param: string, schema: ArgSchema): string {
  const { minimum, maximum } = schema;
  if (minimum !== undefined && maximum !== undefined) {
    return `${param} must be between ${minimum} (inclusive) and ${maximum} (inclusive)`;
  }
  if (minimum !== undefined) return `${param} must be greater than or equal to ${minimum}`;
  return `${param} must be less than or equal to ${maximum}`;
}

export function validateValue(value: unknown, schema: ArgSchema, param: string): Validated {
  if (schema.oneOf) return validateOneOf(value, schema.oneOf, param);
  let input = value;
  if (schema.rawOrObject && typeof input === 'string') input = { raw: input };
  let type = schema.type;
  if (Array.isArray(type)) {
    const best = bestType(input, type);
    if (best === undefined) {
      return fail('rest_invalid_type', `${param} is not of type ${type.join(',')}.`, { param });
    }
    type = best;
  }
  let out: unknown = input;
  switch (type as JsonType | undefined) {
    case undefined:
      break;
    case 'null':
      if (input !== null)
        return fail('rest_invalid_type', `${param} is not of type null.`, { param });
      break;
    case 'boolean': {
      const bool = toBoolean(input);
      if (bool === undefined) {
        return fail('rest_invalid_type', `${param} is not of type boolean.`, { param });
      }
      out = bool;
      break;
    }
    case 'integer':
    case 'number': {
      const result = validateNumber(input, schema, param, type as 'integer' | 'number');
      if (!result.ok) return result;
      out = result.value;
      break;
    }
    case 'string': {
      const result = validateString(input, schema, param);
      if (!result.ok) return result;
      break;
    }
    case 'array': {
      const list = toList(input);
      if (list === undefined) {
        return fail('rest_invalid_type', `${param} is not of type array.`, { param });
      }
      const result = validateArray(list, schema, param);
      if (!result.ok) return result;
      out = result.value;
      break;
    }
    case 'object': {
      const object = toObject(input);
      if (object === undefined) {
        return fail('rest_invalid_type', `${param} is not of type object.`, { param });
      }
      const result = validateObject(object, schema, param);
      if (!result.ok) return result;
      out = result.value;
      break;
    }
  }
  if (schema.enum && !schema.enum.some((allowed) => allowed === out)) {
    return fail('rest_not_in_enum', `${param} is not one of ${schema.enum.join(', ')}.`);
  }
  return { ok: true, value: out };
}

function validateNumber(
  input: unknown,
  schema: ArgSchema,
  param: string,
  type: 'integer' | 'number',
): Validated {
  const num = toNumber(input);
  if (num === undefined || (type === 'integer' && !Number.isInteger(num))) {
    return fail('rest_invalid_type', `${param} is not of type ${type}.`, { param });
  }
  if (
    (schema.minimum !== undefined && num < schema.minimum) ||
    (schema.maximum !== undefined && num > schema.maximum)
  ) {
    return fail('rest_out_of_bounds', boundsMessage(param, schema));
  }
  return { ok: true, value: num };
}

function validateString(input: unknown, schema: ArgSchema, param: string): Validated {
  if (typeof input !== 'string') {
    return fail('rest_invalid_type', `${param} is not of type string.`, { param });
  }
  if (schema.format === 'date-time' && !isDateTime(input)) {
    return fail('rest_invalid_date', 'Invalid date.');
  }
  if (schema.pattern !== undefined && !new RegExp(schema.pattern).test(input)) {
    return fail('rest_invalid_pattern', `${param} does not match pattern ${schema.pattern}.`);
  }
  return { ok: true, value: input };
}

function validateArray(list: unknown[], schema: ArgSchema, param: string): Validated {
  if (schema.minItems !== undefined && list.length < schema.minItems) {
    return fail('rest_too_few_items', `${param} must contain at least ${schema.minItems} items.`);
  }
  if (schema.maxItems !== undefined && list.length > schema.maxItems) {
    return fail('rest_too_many_items', `${param} must contain at most ${schema.maxItems} items.`);
  }
  const out: unknown[] = [];
  for (const [index, element] of list.entries()) {
    if (!schema.items) {
      out.push(element);
      continue;
    }
    const result = validateValue(element, schema.items, `${param}[${index}]`);
    if (!result.ok) return result;
    out.push(result.value);
  }
  if (schema.uniqueItems) {
    const seen = new Set(out.map((element) => JSON.stringify(element)));
    if (seen.size !== out.length)
      return fail('rest_duplicate_items', `${param} has duplicate items.`);
  }
  return { ok: true, value: out };
}

function validateObject(
  object: Record<string, unknown>,
  schema: ArgSchema,
  param: string,
): Validated {
  const out: Record<string, unknown> = {};
  const properties = schema.properties ?? {};
  for (const [key, propertySchema] of Object.entries(properties)) {
    if (propertySchema.required && object[key] === undefined) {
      return fail('rest_property_required', `${key} is a required property of ${param}.`);
    }
  }
  for (const [key, element] of Object.entries(object)) {
    const propertySchema = properties[key];
    if (propertySchema) {
      const result = validateValue(element, propertySchema, `${param}[${key}]`);
      if (!result.ok) return result;
      out[key] = result.value;
    } else if (schema.additionalProperties === false) {
      return fail(
        'rest_additional_properties_forbidden',
        `${key} is not a valid property of Object.`,
      );
    } else if (typeof schema.additionalProperties === 'object') {
      const result = validateValue(element, schema.additionalProperties, `${param}[${key}]`);
      if (!result.ok) return result;
      out[key] = result.value;
    } else {
      out[key] = element;
    }
  }
  return { ok: true, value: out };
}

function validateOneOf(value: unknown, schemas: readonly ArgSchema[], param: string): Validated {
  const passed: unknown[] = [];
  const issues: Issue[] = [];
  for (const schema of schemas) {
    const result = validateValue(value, schema, param);
    if (result.ok) passed.push(result.value);
    else issues.push(result.issue);
  }
  if (passed.length === 1) return { ok: true, value: passed[0] };
  if (passed.length > 1) {
    return fail(
      'rest_one_of_multiple_matches',
      `${param} matches more than one of the expected formats.`,
    );
  }
  // When the value had the right shape for exactly one alternative, its own error says more.
  const specific = issues.filter((issue) => issue.code !== 'rest_invalid_type');
  if (specific.length === 1) return { ok: false, issue: specific[0] as Issue };
  return fail('rest_no_matching_schema', `${param} does not match any of the expected formats.`);
}

/**
 * Validates the merged request parameters against a route endpoint's args and returns the
 * coerced parameters with defaults applied. Parameters the endpoint does not declare are
 * passed through untouched (servers ignore them). Throws RestError (400) on problems.
 */
export function validateParams(
  args: ArgMap,
  input: Readonly<Record<string, unknown>>,
  context: CheckContext,
): Record<string, unknown> {
  const missing = Object.entries(args)
    .filter(([name, schema]) => schema.required && input[name] === undefined)
    .map(([name]) => name);
  if (missing.length > 0) throw missingParams(missing);
  const out: Record<string, unknown> = { ...input };
  const issues: Record<string, Issue> = {};
  for (const [name, schema] of Object.entries(args)) {
    if (input[name] === undefined) {
      if (schema.default !== undefined) out[name] = structuredClone(schema.default);
      continue;
    }
    const result = validateValue(input[name], schema, name);
    if (!result.ok) {
      issues[name] = result.issue;
      continue;
    }
    const problem = schema.check?.(result.value, context);
    if (problem) {
      issues[name] = problem;
      continue;
    }
    out[name] = result.value;
  }
  if (Object.keys(issues).length > 0) throw invalidParams(issues);
  return out;
}
