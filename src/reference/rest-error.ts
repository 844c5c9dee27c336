import type { Issue } from './arg-schema.js';

/**
 * An answer of the interface that is an error: serialized as `{code, message, data: {status,
 * ...}}`, the shape deployed servers use (observed-behaviour.md). Thrown by handlers and
 * turned into a response by the dispatcher; never escapes the reference site.
 */
export class RestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extraData: Readonly<Record<string, unknown>>;

  constructor(
    status: number,
    code: string,
    message: string,
    extraData: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'RestError';
    this.status = status;
    this.code = code;
    this.extraData = extraData;
  }

  toBody(): { code: string; message: string; data: Record<string, unknown> } {
    return {
      code: this.code,
      message: this.message,
      data: { status: this.status, ...this.extraData },
    };
  }
}

/** 400 rest_invalid_param with `params` (messages) and `details` (code, message, data) per param. */
export function invalidParams(issues: Readonly<Record<string, Issue>>): RestError {
  const names = Object.keys(issues);
  const params: Record<string, string> = {};
  const details: Record<string, Issue> = {};
  for (const name of names) {
    const issue = issues[name] as Issue;
    params[name] = issue.message;
    details[name] = { code: issue.code, message: issue.message, data: issue.data };
  }
  return new RestError(400, 'rest_invalid_param', `Invalid parameter(s): ${names.join(', ')}`, {
    params,
    details,
  });
}

export function missingParams(names: readonly string[]): RestError {
  return new RestError(
    400,
    'rest_missing_callback_param',
    `Missing parameter(s): ${names.join(', ')}`,
    {
      params: [...names],
    },
  );
}

export function noRoute(): RestError {
  return new RestError(
    404,
    'rest_no_route',
    'No route was found matching the URL and request method.',
  );
}
