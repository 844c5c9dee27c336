import type { DoneAction } from './restore-run.js';
import type { RestoreReport } from './run-restore.js';

/** What each action is called once done, and (`--dry-run`) before. */
const LABELS: Readonly<Record<DoneAction['kind'], string>> = {
  recreate: 'created again',
  adopt: 'found again',
  untrash: 'untrashed',
  update: 'updated',
  trash: 'trashed',
  relink: 'links moved',
};

const WOULD: Readonly<Record<DoneAction['kind'], string>> = {
  recreate: 'would create again',
  adopt: 'would find again',
  untrash: 'would untrash',
  update: 'would update',
  trash: 'would trash',
  relink: 'would move links',
};

/** The report as text lines: one line per item, then the totals. Pure. */
export function formatRestore(report: RestoreReport): string[] {
  const lines: string[] = [];
  const would = report.dryRun ? 'would be ' : '';
  for (const [lang, result] of Object.entries(report.languages)) {
    lines.push(
      `${lang}: ${result.done.length} item(s) ${would}changed, ${result.unchanged} already as wanted`,
    );
    for (const action of result.done) {
      const label = (report.dryRun ? WOULD : LABELS)[action.kind];
      const id = action.newId === undefined ? '' : ` → ${action.newId}`;
      const fields = action.fields.length > 0 ? ` (${action.fields.join(', ')})` : '';
      lines.push(
        `  ${label.padEnd(20)} ${action.type}/${action.id}${id} ${JSON.stringify(oneLine(action.title))}${fields}`,
      );
    }
    for (const item of result.leftNew)
      lines.push(
        `  left alone (new)     ${item.type}/${item.id} ${JSON.stringify(oneLine(item.title))}`,
      );
    for (const conflict of result.conflicts) lines.push(`  conflict: ${conflict.message}`);
    for (const failure of result.failed)
      lines.push(`  failed: ${failure.type}/${failure.id}: ${failure.message}`);
    for (const note of result.notes) lines.push(`  note: ${note}`);
  }
  const { requests, writes, batches } = report.counts;
  lines.push(
    `restore${report.dryRun ? ' --dry-run' : ''}: ${requests} request(s), ${writes} write(s) in ${batches} batch call(s); ${report.conflicts} conflict(s), ${report.failed} failed`,
  );
  return lines;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
