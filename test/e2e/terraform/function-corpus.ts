/**
 * The differential harness for Terraform's functions: a corpus of expressions (fixtures/function-corpus/
 * corpus.txt) evaluated by our engine and by the real terraform. Terraform evaluates the whole corpus
 * as the outputs of one configuration (`terraform plan -json` names every failing output; `terraform
 * show -json` of the saved plan gives every value, with unknowns marked), which is one process for
 * hundreds of expressions where `terraform console` prints only its last result.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { evaluate, type EvalScope } from '../../../src/engine/expressions/evaluate';
import { ExpressionError } from '../../../src/engine/expressions/errors';
import { parseExpression } from '../../../src/engine/expressions/parser';
import { isUnknown } from '../../../src/engine/expressions/values';
import { jsonEncode } from '../../../src/engine/functions';
import { jsonDecode } from '../../../src/engine/functions/json-decode';
import { isBigFloat } from '../../../src/engine/numbers/num';

export const CORPUS_DIR = path.join(__dirname, 'fixtures', 'function-corpus');

export interface Case {
  /** Line in corpus.txt, for messages. */
  line: number;
  expr: string;
  /** `~` cases: known to differ from Terraform, with the reason; the test requires they still do. */
  knownDifference?: string;
}

export interface Corpus {
  locals: [string, string][];
  cases: Case[];
}

/** `@local name = expr` lines define locals; `~expr # why` marks a known difference; `#` comments. */
export function readCorpus(file = path.join(CORPUS_DIR, 'corpus.txt')): Corpus {
  const corpus: Corpus = { locals: [], cases: [] };
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, i) => {
      const text = raw.trim();
      if (text === '' || text.startsWith('#')) return;
      const local = /^@local\s+([A-Za-z_][\w-]*)\s*=\s*(.+)$/.exec(text);
      if (local) return void corpus.locals.push([local[1]!, local[2]!]);
      if (text.startsWith('~')) {
        const at = text.lastIndexOf(' # ');
        corpus.cases.push({
          line: i + 1,
          expr: text.slice(1, at).trim(),
          knownDifference: text.slice(at + 3),
        });
        return;
      }
      corpus.cases.push({ line: i + 1, expr: text });
    });
  return corpus;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; summary: string; detail: string };

/** Unknown parts become this marker on both sides, so values compare as plain JSON. */
export const UNKNOWN_MARK = '<unknown>';
/** An infinite number (which JSON cannot hold) becomes this on both sides. */
export const INFINITE_MARK = '<infinite>';

/** A stack directory with the corpus's files, as `cdktf.out/stacks/<stack>` holds copied assets. */
export function makeStackDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'fn-corpus-'));
  cpSync(path.join(CORPUS_DIR, 'files'), dir, { recursive: true });
  // Not valid UTF-8, for file()'s refusal and the byte-oriented file functions.
  writeFileSync(path.join(dir, 'binary.dat'), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x80]));
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Our engine.

function corpusScope(corpus: Corpus, dir: string): EvalScope {
  const memo = new Map<string, unknown>();
  const exprs = new Map(corpus.locals);
  const scope: EvalScope = {
    resolveReference: () => undefined,
    variable: () => undefined,
    local(name) {
      const text = exprs.get(name);
      if (text === undefined) return undefined;
      if (!memo.has(name)) memo.set(name, evaluate(parseExpression(text), scope));
      return memo.get(name);
    },
    path: { module: '.', root: '.', cwd: dir },
  };
  return scope;
}

function markUnknowns(v: unknown): unknown {
  if (isUnknown(v)) return UNKNOWN_MARK;
  if (typeof v === 'number' && !Number.isFinite(v)) return INFINITE_MARK;
  if (isBigFloat(v)) return v.inf ? INFINITE_MARK : v;
  if (Array.isArray(v)) return v.map(markUnknowns);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, markUnknowns(x)]));
  return v;
}

export function evaluateOurs(corpus: Corpus, dir: string): Outcome[] {
  const scope = corpusScope(corpus, dir);
  return corpus.cases.map((c) => {
    try {
      const v = evaluate(parseExpression(c.expr), scope);
      // Numbers keep every digit on both sides (terraform's JSON is read the same exact way).
      return { ok: true, value: jsonDecode(jsonEncode(markUnknowns(v))) };
    } catch (e) {
      if (e instanceof ExpressionError) return { ok: false, summary: e.summary, detail: e.detail ?? '' };
      return { ok: false, summary: 'internal error', detail: String((e as Error).stack ?? e) };
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Terraform.

const TF_ENV = {
  ...process.env,
  CHECKPOINT_DISABLE: '1',
  TF_CLI_CONFIG_FILE: '/dev/null',
  TF_IN_AUTOMATION: '1',
};

const outputName = (i: number): string => `c${String(i).padStart(4, '0')}`;

function configuration(corpus: Corpus, live: Set<number>): string {
  const locals = corpus.locals.map(([k, v]) => `  ${k} = ${v}`).join('\n');
  const outputs = [...live].map((i) => `output "${outputName(i)}" {\n  value = ${corpus.cases[i]!.expr}\n}`);
  return `locals {\n${locals}\n}\n${outputs.join('\n')}\n`;
}

interface TfDiagnostic {
  severity: string;
  summary: string;
  detail?: string;
  snippet?: { context?: string };
}

/** Runs plan until it succeeds, taking out each output it reports an error for. */
function planUntilClean(tf: string, dir: string, corpus: Corpus, errors: Map<number, Outcome>): Set<number> {
  const live = new Set(corpus.cases.map((_, i) => i));
  for (let pass = 0; pass < 8; pass++) {
    writeFileSync(path.join(dir, 'main.tf'), configuration(corpus, live));
    const r = spawnSync(tf, ['plan', '-json', '-input=false', '-lock=false', '-out=corpus.tfplan'], {
      cwd: dir,
      env: TF_ENV,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    if (r.status === 0) return live;
    const diags = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { type: string; diagnostic?: TfDiagnostic })
      .filter((m) => m.type === 'diagnostic' && m.diagnostic?.severity === 'error')
      .map((m) => m.diagnostic!);
    let removed = 0;
    for (const d of diags) {
      // Infinite numbers are values terraform cannot write to a plan file; record them as such.
      for (const inf of (d.detail ?? '').matchAll(/output value "c(\d+)": cannot serialize infinity/g)) {
        const i = Number(inf[1]);
        if (live.delete(i)) removed++;
        errors.set(i, { ok: true, value: INFINITE_MARK });
      }
      if (d.summary === 'Failed to write plan file') continue;
      const m = /^output "c(\d+)"$/.exec(d.snippet?.context ?? '');
      if (!m) throw new Error(`terraform reported an error outside the corpus outputs: ${JSON.stringify(d)}`);
      const i = Number(m[1]);
      if (!live.delete(i)) continue;
      errors.set(i, { ok: false, summary: d.summary, detail: (d.detail ?? '').replace(/\s+/g, ' ') });
      removed++;
    }
    if (removed === 0)
      throw new Error(`terraform plan failed without naming an output:\n${r.stderr}${r.stdout}`);
  }
  throw new Error('terraform plan kept failing');
}

/** Terraform's planned value with every unknown part replaced by the marker. */
function mergeUnknown(after: unknown, unknown: unknown): unknown {
  if (unknown === true) return UNKNOWN_MARK;
  if (Array.isArray(unknown)) return (after as unknown[]).map((x, i) => mergeUnknown(x, unknown[i]));
  if (unknown !== null && typeof unknown === 'object') {
    const a = (after ?? {}) as Record<string, unknown>;
    const u = unknown as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(a), ...Object.keys(u)])].sort();
    return Object.fromEntries(keys.map((k) => [k, mergeUnknown(a[k] ?? null, u[k])]));
  }
  return after;
}

export function evaluateTerraform(tf: string, corpus: Corpus, dir: string): Outcome[] {
  const errors = new Map<number, Outcome>();
  const live = planUntilClean(tf, dir, corpus, errors);
  const shown = jsonDecode(
    execFileSync(tf, ['show', '-json', 'corpus.tfplan'], {
      cwd: dir,
      env: TF_ENV,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    }),
  ) as { output_changes?: Record<string, { after?: unknown; after_unknown?: unknown }> };
  return corpus.cases.map((_, i) => {
    if (!live.has(i)) return errors.get(i)!;
    const change = shown.output_changes?.[outputName(i)];
    if (!change) return { ok: true, value: null };
    return { ok: true, value: mergeUnknown(change.after ?? null, change.after_unknown) };
  });
}
