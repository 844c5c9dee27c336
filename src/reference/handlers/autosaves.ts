import type { ContextName } from '../arg-schema.js';
import { planWrite } from '../items-write.js';
import { forbidden, mayEdit } from '../permissions.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler } from '../route-types.js';
import { serializeRevision } from '../serialize.js';
import { toEpochSeconds } from '../site-dates.js';
import type { ItemType } from '../store.js';
import { requireParent, requireRevision } from './revisions.js';

/**
 * Autosaves: one per user and item, holding unsaved title/content/excerpt. Creating one
 * validates the body like an update but never changes the item itself (servers only do that
 * for a draft autosaved by its own author; this reference always keeps a separate autosave).
 */
export function autosaveListHandler(type: ItemType): Handler {
  return (context) => {
    const parent = context.store.getItem(type, Number(context.urlParams.id));
    if (!parent) throw new RestError(404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
    if (!mayEdit(context.user, parent.type)) {
      throw forbidden(
        context.user,
        'rest_cannot_read',
        'Sorry, you are not allowed to view autosaves of this post.',
      );
    }
    const contextName = context.params.context as ContextName;
    const body = context.store
      .revisionsOf(parent.id, 'autosave')
      .map((autosave) =>
        serializeRevision(context.site, context.store, autosave, parent, contextName),
      );
    return json(body);
  };
}

export function autosaveGetHandler(type: ItemType): Handler {
  return (context) => {
    const parent = requireParent(context, type, Number(context.urlParams.parent));
    if (!mayEdit(context.user, parent.type)) {
      throw forbidden(
        context.user,
        'rest_cannot_read',
        'Sorry, you are not allowed to view autosaves of this post.',
      );
    }
    const autosave = requireRevision(context, parent);
    if (autosave.kind !== 'autosave')
      throw new RestError(404, 'rest_post_invalid_id', 'Invalid autosave ID.');
    return json(
      serializeRevision(
        context.site,
        context.store,
        autosave,
        parent,
        context.params.context as ContextName,
      ),
    );
  };
}

export function autosaveCreateHandler(type: ItemType): Handler {
  return (context) => {
    const { store, site, user, params } = context;
    const parent = store.getItem(type, Number(context.urlParams.id));
    if (!parent) throw new RestError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    if (!user)
      throw new RestError(401, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    // Validation of author, parent, sticky + password etc. as for an update; nothing is stored on the item.
    const patch = planWrite(site, store, parent, params);
    const now = toEpochSeconds(site.clock());
    const existing = store
      .revisionsOf(parent.id, 'autosave')
      .find((autosave) => autosave.author === user.id);
    const fields = {
      title: patch.title ?? existing?.title ?? parent.title,
      content: patch.content ?? existing?.content ?? parent.content,
      excerpt: patch.excerpt ?? existing?.excerpt ?? parent.excerpt,
    };
    let autosave = existing;
    if (autosave) {
      Object.assign(autosave, fields, { modifiedGmt: now, dateGmt: now });
      store.version++;
    } else {
      autosave = {
        id: store.allocateId(),
        parent: parent.id,
        kind: 'autosave',
        author: user.id,
        dateGmt: now,
        modifiedGmt: now,
        ...fields,
      };
      store.addRevision(autosave);
    }
    return json(serializeRevision(site, store, autosave, parent, 'edit'));
  };
}
