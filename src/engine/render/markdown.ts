/**
 * The plan as a pull-request comment: a summary line, a warning when anything is destroyed or
 * cannot be placed, a table of changes (action, address, construct, scheduler summary) and one
 * collapsed `<details>` per resource with its diff and the scheduler's view.
 *
 * GitHub rejects comments over 65,536 characters, so the comment is fitted to a budget: first
 * diffs that do not fit are shortened or left out, then table rows, each with a notice saying how
 * many were left out. Secrets are scrubbed from every piece before it is measured.
 */
import { formatDiagnostic } from '../../provider/values';
import { type DiffLine, layoutLine, outputLines, resourceLines } from './diff';
import {
  type ChangeAction,
  type PlanModel,
  type ResourceChange,
  hasChanges,
  isShown,
  sortedChanges,
  summarize,
  summaryCounts,
} from './model';
import { placementFailures, schedulerLines, schedulerSummary, unplacedCount } from './scheduler';
import { Redactor } from './sensitive';
import { formatLocatedDiagnostic } from './text';

export const GITHUB_COMMENT_LIMIT = 65_536;

export interface MarkdownOptions {
  /** Heading above the summary, e.g. the stack name. */
  title?: string;
  /** Character budget (default GitHub's 65,536). */
  maxLength?: number;
  /** Command shown in the truncation notice. */
  fullPlanCommand?: string;
}

const ACTION_LABEL: Record<ChangeAction, string> = {
  create: '➕ create',
  update: '🔄 update',
  replace: '♻️ replace',
  delete: '🗑️ destroy',
  read: '📖 read',
  noop: 'no-op',
  forget: '🔕 forget',
};

const MARKER: Record<DiffLine['sym'], string> = {
  '+': '+',
  '-': '-',
  '~': '!',
  '-/+': '!',
  '+/-': '!',
  '<=': ' ',
  '.': ' ',
  ' ': ' ',
};

/** The action cell: a move or import with nothing else to do says so instead of "no-op". */
function actionLabel(rc: ResourceChange): string {
  if (rc.action === 'noop' && rc.importing) return '📥 import';
  if (rc.action === 'noop' && rc.previousAddress) return '🚚 move';
  return ACTION_LABEL[rc.action];
}

/** Where it came from: `(moved from a)`, `(imported from "id")`. */
function originNote(rc: ResourceChange): string {
  const notes: string[] = [];
  if (rc.previousAddress) notes.push(`moved from ${rc.previousAddress}`);
  if (rc.importing) notes.push(`imported from ${JSON.stringify(rc.importing.id)}`);
  return notes.length > 0 ? ` (${notes.join('; ')})` : '';
}

/** A diff line for a ```diff block: the +/-/! marker in column 0 (what GitHub colours), layout kept. */
function markdownDiffLine(l: DiffLine): string {
  const plain = layoutLine(l);
  if (l.sym.length > 1) return MARKER[l.sym] + plain;
  const cleared = `${'    '.repeat(l.depth)}    ${l.text}${l.comment ? ` # ${l.comment}` : ''}`;
  return MARKER[l.sym] + cleared.slice(1);
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function code(s: string): string {
  const longest = Math.max(0, ...(s.match(/`+/g) ?? []).map((m) => m.length));
  const ticks = '`'.repeat(longest + 1);
  return longest > 0 ? `${ticks} ${s} ${ticks}` : `\`${s}\``;
}

function fence(lines: string[]): string {
  const body = lines.join('\n');
  const longest = Math.max(2, ...(body.match(/`{3,}/g) ?? []).map((m) => m.length));
  const f = '`'.repeat(longest + 1);
  return `${f}diff\n${body}\n${f}`;
}

function schedulerCell(rc: ResourceChange): string {
  if (!rc.scheduler) return '';
  const unplaced = unplacedCount(rc.scheduler);
  return schedulerSummary(rc.scheduler) + (unplaced > 0 ? ` ⚠️ ${unplaced} not placed` : '');
}

function row(rc: ResourceChange): string {
  return `| ${actionLabel(rc)} | ${cell(code(rc.address))}${cell(originNote(rc))} | ${rc.constructPath ? cell(code(rc.constructPath)) : ''} | ${cell(schedulerCell(rc))} |`;
}

/** A resource's details block; `maxDiffLines` shortens the diff (the rest is counted, not shown). */
function details(
  rc: ResourceChange,
  maxDiffLines = Infinity,
  diff = resourceLines(rc).map(markdownDiffLine),
): string {
  const shown = diff.slice(0, maxDiffLines);
  if (shown.length < diff.length) shown.push(`  … ${diff.length - shown.length} more lines not shown`);
  const parts = [
    `<details><summary>${actionLabel(rc)} <code>${escapeHtml(rc.address)}</code>${escapeHtml(originNote(rc))}${
      rc.constructPath ? ` (${escapeHtml(rc.constructPath)})` : ''
    }</summary>`,
    '',
    fence(shown),
  ];
  if (rc.scheduler) {
    const [first, ...rest] = schedulerLines(rc.scheduler);
    parts.push('', `**${first!.replace(/^Scheduler:/, 'Scheduler:**')}`);
    for (const l of rest) parts.push(`- ${l.startsWith('Task group') ? '⚠️ ' : ''}${l.trim()}`);
  }
  if (rc.diagnostics.length > 0) {
    parts.push('');
    for (const d of rc.diagnostics)
      parts.push(`- ${d.severity === 'error' ? '❌' : '⚠️'} ${formatDiagnostic(d)}`);
  }
  parts.push('', '</details>');
  return parts.join('\n');
}

function outputsDetails(plan: PlanModel): string | undefined {
  const lines = outputLines([...plan.outputChanges].sort((a, b) => (a.name < b.name ? -1 : 1)));
  if (lines.length === 0) return undefined;
  return [
    '<details><summary>Changes to outputs</summary>',
    '',
    fence(lines.map(markdownDiffLine)),
    '',
    '</details>',
  ].join('\n');
}

function warnings(changes: ResourceChange[]): string[] {
  const out: string[] = [];
  const destroyed = changes.filter((rc) => rc.action === 'delete' || rc.action === 'replace');
  if (destroyed.length > 0) {
    const listed = destroyed
      .slice(0, 20)
      .map((rc) => `${code(rc.address)} (${rc.action === 'delete' ? 'destroy' : 'replace'})`)
      .join(', ');
    const more = destroyed.length > 20 ? ` and ${destroyed.length - 20} more` : '';
    out.push(
      '> [!WARNING]',
      `> This plan destroys ${destroyed.length} resource${destroyed.length === 1 ? '' : 's'}: ${listed}${more}.`,
    );
  }
  const failures = changes.flatMap((rc) =>
    rc.scheduler ? placementFailures(rc.scheduler).map((f) => `${code(rc.address)}: ${f}`) : [],
  );
  if (failures.length > 0) {
    if (out.length > 0) out.push('');
    out.push('> [!CAUTION]', '> The scheduler cannot place every allocation:');
    for (const f of failures.slice(0, 20)) out.push(`> - ${f}`);
    if (failures.length > 20) out.push(`> - and ${failures.length - 20} more`);
  }
  return out;
}

export function renderMarkdown(plan: PlanModel, opts: MarkdownOptions = {}): string {
  const limit = opts.maxLength ?? GITHUB_COMMENT_LIMIT;
  const command = opts.fullPlanCommand ?? 'cdktf-sched plan';
  const redact = Redactor.forPlan(plan);
  const all = sortedChanges(plan.resourceChanges);
  const changes = all.filter(isShown);

  const head: string[] = [];
  if (opts.title) head.push(`### ${redact.text(opts.title)}`, '');
  // A reviewer must see a failed plan first, not a summary that looks like a complete one.
  if (plan.errored) {
    head.push(
      `**Plan failed** (see Diagnostics below); what it found so far: ${summaryCounts(summarize(plan))}`,
    );
  } else if (!hasChanges(plan))
    head.push('**Plan:** no changes. Your infrastructure matches the configuration.');
  else head.push(`**Plan:** ${summaryCounts(summarize(plan))}`);
  const warn = warnings(all);
  if (warn.length > 0) head.push('', ...warn.map((l) => redact.text(l)));

  const tail: string[] = [];
  const diags = plan.diagnostics.map(
    (d) => `- ${d.severity === 'error' ? '❌' : '⚠️'} ${formatLocatedDiagnostic(d)}`,
  );
  if (plan.errored) diags.push('- ❌ Planning failed; the changes listed are incomplete.');
  if (diags.length > 0) tail.push(redact.text(['**Diagnostics**', '', ...diags].join('\n')));

  const tableHead = '| Action | Resource | Construct | Scheduler |\n| --- | --- | --- | --- |';
  const rows = changes.map((rc) => redact.text(row(rc)));
  const blocks: { full: string; rc?: ResourceChange }[] = changes.map((rc) => ({
    full: redact.text(details(rc)),
    rc,
  }));
  const outs = outputsDetails(plan);
  if (outs) blocks.push({ full: redact.text(outs) });

  const assemble = (
    rowsShown: string[],
    rowNote: string | undefined,
    blocksShown: string[],
    blockNote: string | undefined,
  ): string => {
    const sections: string[] = [head.join('\n')];
    if (rowsShown.length > 0 || rowNote)
      sections.push([tableHead, ...rowsShown].join('\n') + (rowNote ? `\n\n${rowNote}` : ''));
    if (blocksShown.length > 0) sections.push(blocksShown.join('\n\n'));
    if (blockNote) sections.push(blockNote);
    sections.push(...tail);
    return `${sections.join('\n\n')}\n`;
  };

  const full = assemble(
    rows,
    undefined,
    blocks.map((b) => b.full),
    undefined,
  );
  if (full.length <= limit) return full;

  // Too long: keep every row if possible and fit as many diffs as the rest of the budget allows.
  const noteFor = (omitted: number, shortened: number): string =>
    `> [!NOTE]\n> ${[
      omitted > 0 ? `${omitted} of ${blocks.length} diffs were left out` : '',
      shortened > 0 ? `${shortened} diff${shortened === 1 ? ' was' : 's were'} shortened` : '',
    ]
      .filter(Boolean)
      .join(
        ' and ',
      )} to keep this comment under ${limit.toLocaleString('en-US')} characters. Run \`${command}\` for the full plan.`;
  const reserve = noteFor(blocks.length, blocks.length).length + 4;
  const base = assemble(rows, undefined, [], undefined).length;
  if (base + reserve <= limit) {
    let budget = limit - base - reserve;
    const kept: string[] = [];
    let omitted = 0;
    let shortened = 0;
    for (const b of blocks) {
      const cost = b.full.length + 2;
      if (cost <= budget) {
        kept.push(b.full);
        budget -= cost;
        continue;
      }
      // Shorten a resource diff that does not fit whole, if a useful part of it still fits.
      if (b.rc && budget > 1000) {
        const diff = resourceLines(b.rc).map(markdownDiffLine);
        let lo = 0;
        let hi = diff.length;
        let best: string | undefined;
        while (lo <= hi) {
          const mid = (lo + hi) >> 1;
          const candidate = redact.text(details(b.rc, mid, diff));
          if (candidate.length + 2 <= budget) {
            best = candidate;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        if (best !== undefined && lo > 1) {
          kept.push(best);
          budget -= best.length + 2;
          shortened++;
          continue;
        }
      }
      omitted++;
    }
    return assemble(rows, undefined, kept, omitted + shortened > 0 ? noteFor(omitted, shortened) : undefined);
  }

  // Even the table does not fit: no diffs, and as many rows as fit.
  const rowNote = (n: number): string =>
    `> [!NOTE]\n> ${n} of ${rows.length} resources were left out of this table and all ${blocks.length} diffs were left out to keep this comment under ${limit.toLocaleString('en-US')} characters. Run \`${command}\` for the full plan.`;
  let budget = limit - assemble([], rowNote(rows.length), [], undefined).length;
  const keptRows: string[] = [];
  for (const r of rows) {
    if (r.length + 1 > budget) break;
    keptRows.push(r);
    budget -= r.length + 1;
  }
  const text = assemble(keptRows, rowNote(rows.length - keptRows.length), [], undefined);
  // Only a pathological head (thousands of destroyed resources' warning) can still be too long.
  return text.length <= limit ? text : `${text.slice(0, limit - 40)}\n\n…(comment truncated)\n`;
}
