import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HandlerContext } from '../route-types.js';

/** What every `seo/v1` helper route shares: editors only, and the plug-in's success shape. */
function requireEditor(context: HandlerContext): void {
  if (!context.user)
    throw new RestError(401, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
}

export function editorRoute(handler: Handler): Handler {
  return (context) => {
    requireEditor(context);
    return handler(context);
  };
}

export const ok = (extra: Record<string, unknown> = {}): ReturnType<typeof json> =>
  json({ success: true, status: 200, ...extra });
