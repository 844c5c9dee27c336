import type { ChangeKind, ItemChange } from './diff-plan.js';
import type { DiffReport } from './run-diff.js';

const LABELS: Readonly<Record<ChangeKind, string>> = {
  deleted: 'deleted',
  'media-removed': 'media removed',
  trashed: 'trashed',
  unpublished: 'unpublished',
  updated: 'updated',
  created: 'created',
  'media-added': 'media added',
};

const AGAINST: Readonly<Record<DiffReport['against'], string>> = {
  snapshot: 'the snapshot',
  since: 'the kept history at',
  live: 'the live site',
};

/** The report as text lines for a terminal: one line per change, then its text diffs. Pure. */
export function formatDiff(report: DiffReport): string[] {
  const lines: string[] = [];
  for (const [lang, changes] of Object.entries(report.languages)) {
    lines.push(
      `${lang}: ${changes.length === 0 ? 'no difference' : `${changes.length} change(s)`} between ${AGAINST[report.against]} ${report.with} and the cache${report.against === 'live' ? ' (cache → site)' : ''}`,
    );
    for (const change of changes) lines.push(...formatChange(change));
  }
  const counted = Object.entries(report.counts)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${LABELS[kind as ChangeKind]}`);
  lines.push(
    report.total === 0 ? 'no difference' : `${report.total} change(s): ${counted.join(', ')}`,
  );
  return lines;
}

function formatChange(change: ItemChange): string[] {
  const status =
    change.statusBefore !== change.statusAfter &&
    change.statusBefore !== null &&
    change.statusAfter !== null
      ? ` (${change.statusBefore} → ${change.statusAfter})`
      : '';
  const media = change.removedMedia
    .map(
      (item) =>
        `, with its featured image ${item.type}/${item.id} ${JSON.stringify(oneLine(item.title))}`,
    )
    .join('');
  const head = `  ${LABELS[change.kind].padEnd(13)} ${change.type}/${change.id} ${JSON.stringify(oneLine(change.title))}${status}${media}`;
  const lines = [head];
  if (change.fields.length > 0)
    lines.push(`      other changed fields: ${change.fields.join(', ')}`);
  for (const text of change.text) {
    lines.push(`      ${text.field}:`);
    for (const line of text.lines) lines.push(`        ${line.op} ${line.text}`);
  }
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
