import type { Edit } from '../store/index.js';

/** How an edit is named to the user: its file, else `lang/type/id`. */
export function labelOf(edit: Edit): string {
  if (edit.file !== null) return edit.file;
  return `${edit.lang}/${edit.type}/${edit.itemId ?? 'new'}`;
}

/** An edit of an existing item that moves it to the trash (sent as a DELETE). */
export function isTrash(edit: Edit): boolean {
  return edit.itemId !== null && edit.fields.status === 'trash';
}
