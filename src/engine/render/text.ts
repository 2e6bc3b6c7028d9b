/**
 * The terminal rendering of a plan, laid out like Terraform's: a legend of the symbols in use, one
 * block per changed resource with its attribute diff, the scheduler's view under each job, the
 * summary line, output changes and diagnostics. Plain lines unless `color` is set.
 */
import { formatDiagnostic, type Diagnostic } from '../../provider/values';
import {
  type DiffLine,
  type LineSink,
  type Sym,
  actionSymbol,
  indentOf,
  layoutLine,
  layoutParts,
  leadOf,
  LEADS,
  outputLines,
  writeResourceLines,
} from './diff';
import {
  type PlanModel,
  type ResourceChange,
  hasChanges,
  isShown,
  sortedChanges,
  summarize,
  summaryCounts,
} from './model';
import { schedulerLines } from './scheduler';
import { Redactor } from './sensitive';
import { type Style, makeStyle } from './style';

export interface TextOptions {
  /** ANSI colours; pass true only on a TTY and not under CI (see wantsColor). */
  color: boolean;
  /** Name used in "… will perform the following actions". */
  toolName?: string;
  /**
   * A change's block as renderResourceText made it earlier with this same colour setting, if it did
   * (cli/render-ahead); its lines may come joined by newlines. Unredacted like any block: the whole
   * text is scrubbed at the end either way.
   */
  renderedBlock?: (rc: ResourceChange) => readonly string[] | undefined;
}

const LEGEND: [Sym, string][] = [
  ['+', 'create'],
  ['~', 'update in-place'],
  ['-', 'destroy'],
  ['-/+', 'destroy and then create replacement'],
  ['+/-', 'create replacement and then destroy'],
  ['<=', 'read (data resources)'],
];

function colorSym(sym: Sym, st: Style): string {
  const padded = sym.padStart(3);
  switch (sym) {
    case '+':
      return st.green(padded);
    case '-':
      return st.red(padded);
    case '~':
      return st.yellow(padded);
    case '<=':
      return st.cyan(padded);
    case '.':
      return st.red(padded);
    case '-/+':
      return `${st.red('-')}/${st.green('+')}`;
    case '+/-':
      return `${st.green('+')}/${st.red('-')}`;
    default:
      return padded;
  }
}

function colorLine(depth: number, sym: Sym, text: string, comment: string | undefined, st: Style): string {
  const note = comment ? ` ${st.red(`# ${comment}`)}` : '';
  return `${indentOf(depth)}${colorSym(sym, st)} ${text.startsWith('# (') ? st.dim(text) : text}${note}`;
}

function renderLine(l: DiffLine, st: Style): string {
  return st.color ? colorLine(l.depth, l.sym, l.text, l.comment, st) : layoutLine(l);
}

/** A diff sink that lays each line out as it comes, onto `lines`. */
function lineLayout(lines: string[], st: Style): LineSink {
  return st.color
    ? (depth, sym, text, comment) => {
        lines.push(colorLine(depth, sym, text, comment, st));
      }
    : (depth, sym, text, comment) => {
        lines.push(
          comment ? layoutParts(depth, sym, text, comment) : (LEADS[sym][depth] ?? leadOf(depth, sym)) + text,
        );
      };
}

function headline(rc: ResourceChange): string {
  switch (rc.action) {
    case 'create':
      return 'will be created';
    case 'update':
      return 'will be updated in-place';
    case 'delete':
      return 'will be destroyed';
    case 'read':
      return 'will be read during apply';
    case 'forget':
      return 'will no longer be managed by Terraform, but will not be destroyed';
    case 'noop':
      if (rc.previousAddress) return `has moved to ${rc.address}`;
      if (rc.importing) return 'will be imported';
      return 'has no changes';
    case 'replace':
      if (rc.actionReason === 'replace_because_tainted') return 'is tainted, so must be replaced';
      if (rc.actionReason === 'replace_by_request') return 'will be replaced, as requested';
      if (rc.actionReason === 'replace_by_triggers')
        return 'will be replaced due to changes in replace_triggered_by';
      return 'must be replaced';
    default:
      return 'has no changes';
  }
}

/** The notes under the headline: why (action_reason), and where it came from (moved, imported). */
function notes(rc: ResourceChange): string[] {
  const out: string[] = [];
  const reason = reasonNote(rc);
  if (reason) out.push(`  # ${reason}`);
  // Terraform indents a forget's lines by one space, not two.
  if (rc.action === 'forget') out.push(' # (destroy = false is set in the configuration)');
  if (rc.previousAddress && rc.action !== 'noop') out.push(`  # (moved from ${rc.previousAddress})`);
  if (rc.importing && rc.action !== 'noop')
    out.push(`  # (imported from ${JSON.stringify(rc.importing.id)})`);
  if (rc.importing && rc.action === 'replace')
    out.push('  # Warning: this will destroy the imported resource');
  return out;
}

function headlineAddress(rc: ResourceChange): string {
  return rc.action === 'noop' && rc.previousAddress ? rc.previousAddress : rc.address;
}

function reasonNote(rc: ResourceChange): string | undefined {
  switch (rc.actionReason) {
    case 'delete_because_no_resource_config':
      return `(because ${rc.type}.${rc.name} is not in configuration)`;
    case 'delete_because_count_index':
      return `(because index ${JSON.stringify(rc.index)} is out of range for count)`;
    case 'delete_because_each_key':
      return `(because key ${JSON.stringify(rc.index)} is not in for_each map)`;
    case 'delete_because_wrong_repetition':
      return '(because the resource no longer uses count or for_each as it did)';
    case 'read_because_config_unknown':
      return '(config refers to values not yet known)';
    case 'read_because_dependency_pending':
      return '(depends on a resource or a module with changes pending)';
    default:
      return undefined;
  }
}

/** Plan-level diagnostics may come from a resource: then they say which one, and which construct. */
export type LocatedDiagnostic = Diagnostic & { address?: string; constructPath?: string };

export function formatLocatedDiagnostic(d: LocatedDiagnostic): string {
  const where = d.address
    ? d.constructPath
      ? `${d.address} (${d.constructPath})`
      : d.address
    : d.constructPath;
  if (!where) return formatDiagnostic(d);
  return formatDiagnostic({ ...d, summary: `${where}: ${d.summary}` });
}

function diagnosticLines(ds: LocatedDiagnostic[], st: Style, indent: string): string[] {
  return ds.map((d) => {
    const text = formatLocatedDiagnostic(d);
    return indent + (d.severity === 'error' ? st.red(text) : st.yellow(text));
  });
}

/** The block for one resource change: header comments, the diff, then scheduler and diagnostics. */
export function renderResourceText(rc: ResourceChange, st: Style): string[] {
  const lines: string[] = [];
  const indent = rc.action === 'forget' ? ' ' : '  ';
  lines.push(`${indent}${st.bold(`# ${headlineAddress(rc)}`)} ${headline(rc)}`);
  lines.push(...notes(rc));
  if (rc.constructPath) lines.push(st.dim(`  # (construct ${rc.constructPath})`));
  writeResourceLines(rc, lineLayout(lines, st));
  if (rc.scheduler)
    for (const s of schedulerLines(rc.scheduler))
      lines.push(`    ${s.startsWith('Task group') ? st.red(s) : s}`);
  lines.push(...diagnosticLines(rc.diagnostics, st, '    '));
  return lines;
}

export function renderText(plan: PlanModel, opts: TextOptions): string {
  const st = makeStyle(opts.color);
  const tool = opts.toolName ?? 'cdktf-sched';
  const redact = Redactor.forPlan(plan);
  const out: string[] = [];
  const all = sortedChanges(plan.resourceChanges);
  const changes = all.filter(isShown);
  // Resources with nothing to change but something to say (scheduler failures, warnings) still show up.
  const noted = all.filter(
    (rc) =>
      rc.action === 'noop' &&
      (rc.diagnostics.length > 0 ||
        (rc.scheduler?.failedTGAllocs && Object.keys(rc.scheduler.failedTGAllocs).length > 0)),
  );

  if (!hasChanges(plan)) {
    out.push(
      st.bold(st.green('No changes.')) + ' ' + st.bold('Your infrastructure matches the configuration.'),
    );
  } else if (changes.length > 0) {
    const used = new Set(changes.filter((rc) => rc.action !== 'noop').map((rc) => actionSymbol(rc)));
    // Moves and imports alone have no symbol to explain (Terraform prints no legend for them).
    if (used.size > 0) {
      out.push('Resource actions are indicated with the following symbols:');
      for (const [sym, label] of LEGEND) if (used.has(sym)) out.push(`${colorSym(sym, st)} ${label}`);
      out.push('');
    }
    out.push(`${tool} will perform the following actions:`);
    for (const rc of changes) {
      out.push('');
      out.push(...(opts.renderedBlock?.(rc) ?? renderResourceText(rc, st)));
    }
    out.push('');
    const s = summarize(plan);
    out.push(`${st.bold('Plan:')} ${summaryCounts(s)}.`);
  }

  for (const rc of noted) {
    out.push('');
    out.push(`  ${st.bold(`# ${rc.address}`)} has no changes`);
    if (rc.scheduler) for (const s of schedulerLines(rc.scheduler)) out.push(`    ${s}`);
    out.push(...diagnosticLines(rc.diagnostics, st, '    '));
  }

  const outputs = outputLines([...plan.outputChanges].sort((a, b) => (a.name < b.name ? -1 : 1)));
  if (outputs.length > 0) {
    out.push('');
    out.push('Changes to Outputs:');
    for (const l of outputs) out.push(renderLine(l, st));
  }

  if (plan.diagnostics.length > 0) {
    out.push('');
    out.push(...diagnosticLines(plan.diagnostics, st, ''));
  }
  if (plan.errored) {
    out.push('');
    out.push(st.red('Planning failed; the changes above are incomplete.'));
  }
  return redact.text(`${out.join('\n').replace(/^\n+/, '')}\n`);
}
