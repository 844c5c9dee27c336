/**
 * The one shape of a table row and the record it stands for: the same fields, snake_case in
 * SQL and camelCase in TypeScript. A repo declares its record once and reads rows through
 * `fromRow`, instead of spelling every column twice (a row interface and a field-by-field copy).
 */

/** `baseModifiedGmt` → `base_modified_gmt`. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The row a table holds for a record `T`: each field under its snake_case column name. */
export type RowOf<T> = { [K in keyof T & string as SnakeCase<K>]: T[K] };

/** `base_modified_gmt` → `baseModifiedGmt` (the inverse of `SnakeCase`). */
function camelName(column: string): string {
  return column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * The record a row stands for. Every column of `row` becomes a field, so select the record's
 * columns only (or take the others out first).
 */
export function fromRow<T>(row: RowOf<T>): T {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) record[camelName(column)] = value;
  return record as T;
}
