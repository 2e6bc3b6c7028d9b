/**
 * Reads a stack's `cdk.tf.json` into a StackConfig. It accepts what cdktf synthesizes (provider
 * blocks as arrays, "//" metadata in every block, `${...}` tokens everywhere, depends_on entries
 * with or without `${}`) and the other shapes Terraform's JSON syntax allows (a block as an array of
 * one object, locals as an array). All problems are collected and thrown as one ConfigError.
 */
import { safeParseOnce } from '../../common/parse-once';
import { z } from 'zod';
import type { AttrPath } from '../../provider/values';
import type { Expr } from '../expressions/ast';
import { ExpressionError } from '../expressions/errors';
import { parseExpression } from '../expressions/parser';
import type { ResourceMode, ResourceRef } from '../expressions/references';
import { convertToType, formatType, parseTypeConstraint } from '../expressions/types';
import { defaultProviderName, resourceAddress } from './address';
import {
  ConfigError,
  diagnostic,
  diagnosticFromError,
  type ConfigDiagnostic,
  type DiagnosticContext,
} from './errors';
import { jsonObjectToExpr, jsonToExpr, type ParseSink } from './json-expr';
import type {
  Condition,
  ConstructMetadata,
  ImportConfig,
  Lifecycle,
  LocalConfig,
  MovedConfig,
  RemovedConfig,
  OutputConfig,
  ProviderConfig,
  ProviderRef,
  RequiredProvider,
  ResourceConfig,
  StackConfig,
  VariableConfig,
} from './types';
import { defaultLifecycle } from './types';
import { validateStackConfig } from './validate';

/**
 * A JSON object taken as it is, with z.record's message: z.record would rebuild it key by key, which
 * for a stack of 10,000 resources copies their table (a seventh of the configuration's parse).
 */
const JsonObject = z.custom<Record<string, unknown>>(
  (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  { error: (issue) => `Invalid input: expected record, received ${jsonTypeOf(issue.input)}` },
);

function jsonTypeOf(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** The document's outer shape; each block is checked by hand below for better messages. */
export const CdkTfJsonSchema = z.looseObject({
  '//': JsonObject.optional(),
  terraform: JsonObject.optional(),
  provider: JsonObject.optional(),
  resource: z.record(z.string(), JsonObject).optional(),
  data: z.record(z.string(), JsonObject).optional(),
  variable: JsonObject.optional(),
  locals: z.union([JsonObject, z.array(JsonObject)]).optional(),
  output: JsonObject.optional(),
  import: z.union([z.array(JsonObject), JsonObject]).optional(),
  moved: z.union([z.array(JsonObject), JsonObject]).optional(),
  removed: z.union([z.array(JsonObject), JsonObject]).optional(),
});
export type CdkTfJson = z.infer<typeof CdkTfJsonSchema>;

/** Meta-arguments of a resource or provider block: not part of its body (nor of the plan JSON's expressions). */
export const RESOURCE_META: ReadonlySet<string> = new Set([
  '//',
  'count',
  'for_each',
  'depends_on',
  'provider',
  'lifecycle',
  'provisioner',
  'connection',
]);
export const PROVIDER_META: ReadonlySet<string> = new Set(['//', 'alias', 'version']);
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

export interface ParseOptions {
  /** Shown in messages and kept on the result. */
  file?: string;
  /** Skip the reference checks (undeclared names, count/each context, unknown functions). */
  skipValidation?: boolean;
}

/** Top-level blocks terraform has and this engine does not: refused by name, never ignored. */
const UNSUPPORTED_BLOCKS: Record<string, string> = {
  module: 'Terraform modules are not supported by this engine',
  check: 'check blocks (terraform 1.5 continuous validation) are not supported by this engine',
};
/** Parses and validates a synthesized configuration. Throws ConfigError listing every problem found. */
export function parseStackConfig(json: unknown, opts: ParseOptions = {}): StackConfig {
  const diagnostics: ConfigDiagnostic[] = [];
  const top = safeParseOnce(CdkTfJsonSchema, json);
  if (!top.success) {
    const issues = top.error.issues.map((i) =>
      diagnostic(
        { address: i.path.map(String).join('.') || '(document)' },
        'Invalid configuration document',
        i.message,
      ),
    );
    throw new ConfigError(issues);
  }
  const doc = top.data;
  const config: StackConfig = {
    metadata: isObject(doc['//']?.['metadata']) ? (doc['//']['metadata'] as Record<string, unknown>) : {},
    resources: new Map(),
    dataSources: new Map(),
    providers: new Map(),
    variables: new Map(),
    locals: new Map(),
    outputs: new Map(),
    requiredProviders: {},
    imports: [],
    moved: [],
    removed: [],
    ...(opts.file !== undefined ? { file: opts.file } : {}),
  };

  for (const key of Object.keys(doc)) {
    const why = UNSUPPORTED_BLOCKS[key];
    if (why) diagnostics.push(diagnostic({ address: key }, 'Unsupported block', why));
  }
  parseTerraformBlock(doc.terraform, config, diagnostics);
  for (const [name, blocks] of Object.entries(doc.provider ?? {})) {
    for (const raw of blockList(blocks, { address: `provider.${name}` }, diagnostics)) {
      const p = parseProvider(name, raw, diagnostics);
      if (!p) continue;
      if (config.providers.has(p.address)) {
        diagnostics.push(
          diagnostic(
            { address: `provider.${p.address}` },
            'Duplicate provider configuration',
            `provider "${p.address}" is configured more than once; give each extra one a distinct alias`,
          ),
        );
      }
      config.providers.set(p.address, p);
    }
  }
  for (const [mode, section] of [
    ['managed', doc.resource],
    ['data', doc.data],
  ] as const) {
    for (const [type, byName] of Object.entries(section ?? {})) {
      for (const [name, blocks] of Object.entries(byName)) {
        const address = resourceAddress({ mode, type, name });
        const list = blockList(blocks, { address }, diagnostics);
        if (list.length > 1)
          diagnostics.push(
            diagnostic({ address }, 'Duplicate resource', `${address} is declared ${list.length} times`),
          );
        if (!list[0]) continue;
        const r = parseResource(mode, type, name, list[0], diagnostics);
        (mode === 'data' ? config.dataSources : config.resources).set(address, r);
      }
    }
  }
  for (const [name, raw] of Object.entries(doc.variable ?? {})) {
    const v = parseVariable(name, raw, diagnostics);
    if (v) config.variables.set(name, v);
  }
  const localObjects = Array.isArray(doc.locals) ? doc.locals : doc.locals ? [doc.locals] : [];
  for (const obj of localObjects) {
    for (const [name, raw] of Object.entries(obj)) {
      const ctx = { address: `local.${name}` };
      if (config.locals.has(name))
        diagnostics.push(diagnostic(ctx, 'Duplicate local value', `local.${name} is defined more than once`));
      const sink: ParseSink = { ctx, diagnostics };
      const local: LocalConfig = { name, expr: jsonToExpr(raw, sink) };
      config.locals.set(name, local);
    }
  }
  for (const [name, raw] of Object.entries(doc.output ?? {})) {
    const o = parseOutput(name, raw, diagnostics);
    if (o) config.outputs.set(name, o);
  }
  for (const raw of toArray(doc.import)) {
    const imp = parseImport(raw, diagnostics);
    if (imp) config.imports.push(imp);
  }
  for (const raw of toArray(doc.moved)) {
    const ctx = { address: 'moved' };
    if (typeof raw['from'] !== 'string' || typeof raw['to'] !== 'string') {
      diagnostics.push(diagnostic(ctx, 'Invalid moved block', '"from" and "to" must be resource addresses'));
      continue;
    }
    const m: MovedConfig = { from: stripInterpolation(raw['from']), to: stripInterpolation(raw['to']) };
    config.moved.push(m);
  }
  for (const raw of toArray(doc.removed)) {
    const r = parseRemoved(raw, diagnostics);
    if (r) config.removed.push(r);
  }

  if (!opts.skipValidation && diagnostics.every((d) => d.severity !== 'error')) {
    diagnostics.push(...validateStackConfig(config));
  }
  if (diagnostics.some((d) => d.severity === 'error')) throw new ConfigError(diagnostics);
  return config;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function toArray(
  v: Record<string, unknown> | Record<string, unknown>[] | undefined,
): Record<string, unknown>[] {
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** A block body is an object, or (in Terraform's JSON syntax) an array of objects. */
function blockList(v: unknown, ctx: DiagnosticContext, out: ConfigDiagnostic[]): Record<string, unknown>[] {
  if (isObject(v)) return [v];
  if (Array.isArray(v) && v.every(isObject)) return v;
  out.push(diagnostic(ctx, 'Invalid block', 'a block must be a JSON object (or an array of objects)'));
  return [];
}

function constructOf(raw: Record<string, unknown>): ConstructMetadata {
  const comment = raw['//'];
  if (!isObject(comment)) return {};
  const meta = comment['metadata'];
  const out: ConstructMetadata = { raw: comment };
  if (isObject(meta)) {
    if (typeof meta['path'] === 'string') out.path = meta['path'];
    if (typeof meta['uniqueId'] === 'string') out.uniqueId = meta['uniqueId'];
  }
  return out;
}

function ctxOf(address: string, construct: ConstructMetadata): DiagnosticContext {
  return { address, ...(construct.path !== undefined ? { constructPath: construct.path } : {}) };
}

/** cdktf writes some references as `"${x.y}"` and others bare; Terraform accepts both in these places. */
export function stripInterpolation(s: string): string {
  const m = /^\$\{([\s\S]*)\}$/.exec(s.trim());
  return (m ? m[1]! : s).trim();
}

function staticBool(v: unknown, ctx: DiagnosticContext, path: AttrPath, out: ConfigDiagnostic[]): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '${true}') return true;
  if (v === 'false' || v === '${false}') return false;
  out.push(diagnostic({ ...ctx, path }, 'Invalid value', 'this argument must be a literal true or false'));
  return false;
}

function parseResourceRefs(
  v: unknown,
  ctx: DiagnosticContext,
  path: AttrPath,
  out: ConfigDiagnostic[],
): ResourceRef[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) {
    out.push(
      diagnostic({ ...ctx, path }, 'Invalid depends_on', 'depends_on must be a list of resource references'),
    );
    return [];
  }
  const refs: ResourceRef[] = [];
  v.forEach((item, i) => {
    const ref = typeof item === 'string' ? staticResourceRef(item) : undefined;
    if (!ref) {
      out.push(
        diagnostic(
          { ...ctx, path: [...path, i] },
          'Invalid depends_on reference',
          `${JSON.stringify(item)} is not a reference to a resource or data source (e.g. "sched_job.web")`,
        ),
      );
      return;
    }
    refs.push(ref);
  });
  return refs;
}

/** `sched_job.web`, `${data.x.y}`, `sched_job.web[0]` (the key is dropped: dependencies are per resource). */
function staticResourceRef(text: string): ResourceRef | undefined {
  let e: Expr;
  try {
    e = parseExpression(stripInterpolation(text));
  } catch {
    return undefined;
  }
  if (e.type !== 'scope') return undefined;
  const attrs = e.steps;
  if (e.name === 'data') {
    const [t, n] = attrs;
    if (t?.kind !== 'attr' || n?.kind !== 'attr') return undefined;
    return { mode: 'data', type: t.name, name: n.name };
  }
  if (['var', 'local', 'module', 'count', 'each', 'self', 'path', 'terraform'].includes(e.name))
    return undefined;
  const [n] = attrs;
  if (n?.kind !== 'attr') return undefined;
  return { mode: 'managed', type: e.name, name: n.name };
}

function parseProviderRef(v: unknown): ProviderRef | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^([A-Za-z_][A-Za-z0-9_-]*)(?:\.([A-Za-z_][A-Za-z0-9_-]*))?$/.exec(stripInterpolation(v));
  if (!m) return undefined;
  return { name: m[1]!, ...(m[2] !== undefined ? { alias: m[2] } : {}) };
}

function parseConditions(
  v: unknown,
  ctx: DiagnosticContext,
  path: AttrPath,
  out: ConfigDiagnostic[],
): Condition[] {
  if (v === undefined || v === null) return [];
  const list = Array.isArray(v) ? v : [v];
  const sink: ParseSink = { ctx, diagnostics: out };
  const conds: Condition[] = [];
  list.forEach((c, i) => {
    if (!isObject(c) || c['condition'] === undefined) {
      out.push(
        diagnostic(
          { ...ctx, path: [...path, i] },
          'Invalid condition block',
          'a condition needs "condition" and "error_message"',
        ),
      );
      return;
    }
    conds.push({
      condition: jsonToExpr(c['condition'], sink, [...path, i, 'condition']),
      errorMessage: jsonToExpr(c['error_message'] ?? 'condition failed', sink, [...path, i, 'error_message']),
    });
  });
  return conds;
}

function parseIgnoreChanges(
  v: unknown,
  ctx: DiagnosticContext,
  out: ConfigDiagnostic[],
): Lifecycle['ignoreChanges'] {
  if (v === undefined || v === null) return [];
  const path: AttrPath = ['lifecycle', 'ignore_changes'];
  if (typeof v === 'string') {
    if (stripInterpolation(v) === 'all') return 'all';
    out.push(
      diagnostic({ ...ctx, path }, 'Invalid ignore_changes', 'use "all" or a list of attribute names'),
    );
    return [];
  }
  if (!Array.isArray(v)) {
    out.push(
      diagnostic({ ...ctx, path }, 'Invalid ignore_changes', 'use "all" or a list of attribute names'),
    );
    return [];
  }
  const paths: AttrPath[] = [];
  for (const [i, item] of v.entries()) {
    const p = typeof item === 'string' ? attributePath(item) : undefined;
    if (p === 'all') return 'all';
    if (!p) {
      out.push(
        diagnostic(
          { ...ctx, path: [...path, i] },
          'Invalid ignore_changes entry',
          `${JSON.stringify(item)} is not an attribute path (e.g. "meta" or "task_group[0].count")`,
        ),
      );
      continue;
    }
    paths.push(p);
  }
  return paths;
}

/** `meta`, `meta["k"]`, `task_group[0].count` -> path; `all` (and the legacy `*`) -> 'all'. */
function attributePath(text: string): AttrPath | 'all' | undefined {
  const s = stripInterpolation(text);
  if (s === 'all' || s === '*') return 'all';
  let e: Expr;
  try {
    e = parseExpression(s);
  } catch {
    return undefined;
  }
  if (e.type !== 'scope') return undefined;
  const path: AttrPath = [e.name];
  for (const st of e.steps) {
    if (st.kind === 'attr') path.push(st.name);
    else if (
      st.key.type === 'literal' &&
      (typeof st.key.value === 'string' || typeof st.key.value === 'number')
    )
      path.push(st.key.value);
    else return undefined;
  }
  return path;
}

function parseLifecycle(
  mode: ResourceMode,
  v: unknown,
  ctx: DiagnosticContext,
  out: ConfigDiagnostic[],
): Lifecycle {
  const lc = defaultLifecycle();
  if (v === undefined || v === null) return lc;
  if (!isObject(v)) {
    out.push(
      diagnostic({ ...ctx, path: ['lifecycle'] }, 'Invalid lifecycle block', 'lifecycle must be an object'),
    );
    return lc;
  }
  const allowed =
    mode === 'data'
      ? ['precondition', 'postcondition']
      : [
          'prevent_destroy',
          'create_before_destroy',
          'ignore_changes',
          'replace_triggered_by',
          'precondition',
          'postcondition',
        ];
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k) && k !== '//') {
      out.push(
        diagnostic(
          { ...ctx, path: ['lifecycle', k] },
          'Unsupported lifecycle argument',
          `"${k}" is not valid here; valid arguments are ${allowed.join(', ')}`,
        ),
      );
    }
  }
  lc.preventDestroy = staticBool(v['prevent_destroy'], ctx, ['lifecycle', 'prevent_destroy'], out);
  lc.createBeforeDestroy = staticBool(
    v['create_before_destroy'],
    ctx,
    ['lifecycle', 'create_before_destroy'],
    out,
  );
  lc.ignoreChanges = parseIgnoreChanges(v['ignore_changes'], ctx, out);
  const rtb = v['replace_triggered_by'];
  if (rtb !== undefined && rtb !== null) {
    const sink: ParseSink = { ctx, diagnostics: out };
    if (!Array.isArray(rtb)) {
      out.push(
        diagnostic(
          { ...ctx, path: ['lifecycle', 'replace_triggered_by'] },
          'Invalid replace_triggered_by',
          'must be a list of references',
        ),
      );
    } else {
      rtb.forEach((item, i) => {
        const path: AttrPath = ['lifecycle', 'replace_triggered_by', i];
        // Entries are references; a bare `sched_job.x` is as valid as cdktf's `${sched_job.x}`.
        const text = typeof item === 'string' && !item.includes('${') ? `\${${item}}` : item;
        const e = jsonToExpr(text, sink, path);
        if (e.type !== 'scope' && !(e.type === 'literal' && e.value === null)) {
          out.push(
            diagnostic(
              { ...ctx, path },
              'Invalid replace_triggered_by expression',
              'only references to resources or their attributes are allowed',
            ),
          );
        }
        lc.replaceTriggeredBy.push(e);
      });
    }
  }
  lc.preconditions = parseConditions(v['precondition'], ctx, ['lifecycle', 'precondition'], out);
  lc.postconditions = parseConditions(v['postcondition'], ctx, ['lifecycle', 'postcondition'], out);
  return lc;
}

function parseResource(
  mode: ResourceMode,
  type: string,
  name: string,
  raw: Record<string, unknown>,
  out: ConfigDiagnostic[],
): ResourceConfig {
  const address = resourceAddress({ mode, type, name });
  const construct = constructOf(raw);
  const ctx = ctxOf(address, construct);
  const sink: ParseSink = { ctx, diagnostics: out };
  if (!NAME_RE.test(name))
    out.push(
      diagnostic(
        ctx,
        'Invalid resource name',
        `"${name}" must start with a letter or underscore and contain only letters, digits, underscores and dashes`,
      ),
    );
  for (const k of ['provisioner', 'connection']) {
    if (raw[k] !== undefined)
      out.push(
        diagnostic(
          { ...ctx, path: [k] },
          `Unsupported ${k}`,
          'provisioners and connections are not supported by this engine',
        ),
      );
  }
  let provider: ProviderRef = { name: defaultProviderName(type) };
  const providerExplicit = raw['provider'] !== undefined && raw['provider'] !== null;
  if (providerExplicit) {
    const p = parseProviderRef(raw['provider']);
    if (p) provider = p;
    else
      out.push(
        diagnostic(
          { ...ctx, path: ['provider'] },
          'Invalid provider reference',
          `${JSON.stringify(raw['provider'])} is not a provider reference such as "sched" or "sched.west"`,
        ),
      );
  }
  const r: ResourceConfig = {
    mode,
    type,
    name,
    address,
    construct,
    provider,
    providerExplicit,
    dependsOn: parseResourceRefs(raw['depends_on'], ctx, ['depends_on'], out),
    lifecycle: parseLifecycle(mode, raw['lifecycle'], ctx, out),
    body: jsonObjectToExpr(raw, sink, [], RESOURCE_META),
    raw,
  };
  if (raw['count'] !== undefined && raw['count'] !== null)
    r.count = jsonToExpr(raw['count'], sink, ['count']);
  if (raw['for_each'] !== undefined && raw['for_each'] !== null)
    r.forEach = jsonToExpr(raw['for_each'], sink, ['for_each']);
  if (r.count && r.forEach) {
    out.push(
      diagnostic(
        ctx,
        'Invalid combination of "count" and "for_each"',
        'the "count" and "for_each" meta-arguments are mutually exclusive; only one may be used',
      ),
    );
  }
  return r;
}

function parseProvider(
  name: string,
  raw: Record<string, unknown>,
  out: ConfigDiagnostic[],
): ProviderConfig | undefined {
  const alias = raw['alias'];
  if (alias !== undefined && (typeof alias !== 'string' || !NAME_RE.test(alias))) {
    out.push(
      diagnostic(
        { address: `provider.${name}`, path: ['alias'] },
        'Invalid provider alias',
        'alias must be a plain name',
      ),
    );
    return undefined;
  }
  const address = typeof alias === 'string' ? `${name}.${alias}` : name;
  const construct = constructOf(raw);
  const ctx = ctxOf(`provider.${address}`, construct);
  return {
    name,
    ...(typeof alias === 'string' ? { alias } : {}),
    address,
    construct,
    body: jsonObjectToExpr(raw, { ctx, diagnostics: out }, [], PROVIDER_META),
    raw,
  };
}

/** Names Terraform refuses for variables (`terraform validate` 1.11: "Invalid variable name"). */
const RESERVED_VARIABLE_NAMES = new Set([
  'count',
  'depends_on',
  'for_each',
  'lifecycle',
  'locals',
  'provider',
  'providers',
  'source',
  'version',
]);

function parseVariable(name: string, raw: unknown, out: ConfigDiagnostic[]): VariableConfig | undefined {
  const ctx0 = { address: `var.${name}` };
  if (RESERVED_VARIABLE_NAMES.has(name)) {
    out.push(
      diagnostic(
        ctx0,
        'Invalid variable name',
        `The variable name "${name}" is reserved due to its special meaning inside module blocks.`,
      ),
    );
    return undefined;
  }
  if (!isObject(raw)) {
    out.push(diagnostic(ctx0, 'Invalid variable block', 'a variable must be an object'));
    return undefined;
  }
  const construct = constructOf(raw);
  const ctx = ctxOf(`var.${name}`, construct);
  const v: VariableConfig = {
    name,
    hasDefault: 'default' in raw,
    sensitive: staticBool(raw['sensitive'], ctx, ['sensitive'], out),
    nullable: raw['nullable'] === undefined ? true : staticBool(raw['nullable'], ctx, ['nullable'], out),
    validations: parseConditions(raw['validation'], ctx, ['validation'], out),
    construct,
  };
  if (typeof raw['description'] === 'string') v.description = raw['description'];
  if (raw['type'] !== undefined) {
    if (typeof raw['type'] !== 'string') {
      out.push(
        diagnostic(
          { ...ctx, path: ['type'] },
          'Invalid type specification',
          'the type must be a string such as "list(string)"',
        ),
      );
    } else {
      try {
        v.type = parseTypeConstraint(raw['type']);
        v.typeText = raw['type'];
      } catch (e) {
        out.push(diagnosticFromError({ ...ctx, path: ['type'] }, e, raw['type']));
      }
    }
  }
  if (v.hasDefault) {
    // Terraform reads a JSON variable default literally: no templates.
    const def = raw['default'];
    try {
      v.default = v.type ? convertToType(def, v.type) : def;
    } catch (e) {
      const detail = e instanceof ExpressionError ? e.detail : String(e);
      out.push(
        diagnostic(
          { ...ctx, path: ['default'] },
          'Invalid default value for variable',
          `${detail ?? ''}${v.type ? ` (type ${formatType(v.type)})` : ''}`,
        ),
      );
    }
    if (def === null && !v.nullable) {
      out.push(
        diagnostic(
          { ...ctx, path: ['default'] },
          'Invalid default value for variable',
          'the default is null but the variable is not nullable',
        ),
      );
    }
  }
  return v;
}

function parseOutput(name: string, raw: unknown, out: ConfigDiagnostic[]): OutputConfig | undefined {
  const ctx0 = { address: `output.${name}` };
  if (!isObject(raw) || !('value' in raw)) {
    out.push(diagnostic(ctx0, 'Invalid output block', 'an output needs a "value"'));
    return undefined;
  }
  const construct = constructOf(raw);
  const ctx = ctxOf(`output.${name}`, construct);
  const o: OutputConfig = {
    name,
    value: jsonToExpr(raw['value'], { ctx, diagnostics: out }, ['value']),
    sensitive: staticBool(raw['sensitive'], ctx, ['sensitive'], out),
    dependsOn: parseResourceRefs(raw['depends_on'], ctx, ['depends_on'], out),
    preconditions: parseConditions(raw['precondition'], ctx, ['precondition'], out),
    construct,
    raw,
  };
  if (typeof raw['description'] === 'string') o.description = raw['description'];
  return o;
}

function parseRemoved(raw: Record<string, unknown>, out: ConfigDiagnostic[]): RemovedConfig | undefined {
  const ctx = { address: 'removed' };
  if (typeof raw['from'] !== 'string') {
    out.push(
      diagnostic(
        { ...ctx, path: ['from'] },
        'Invalid removed block',
        '"from" (a resource address) is required',
      ),
    );
    return undefined;
  }
  const from = stripInterpolation(raw['from']);
  const lifecycle = Array.isArray(raw['lifecycle']) ? raw['lifecycle'][0] : raw['lifecycle'];
  const destroy = isObject(lifecycle) ? lifecycle['destroy'] : undefined;
  if (destroy !== undefined && typeof destroy !== 'boolean') {
    out.push(
      diagnostic(
        { address: `removed ${from}`, path: ['lifecycle', 'destroy'] },
        'Invalid removed block',
        'lifecycle.destroy must be true or false',
      ),
    );
    return undefined;
  }
  return { from, destroy: destroy ?? true };
}

function parseImport(raw: Record<string, unknown>, out: ConfigDiagnostic[]): ImportConfig | undefined {
  const ctx = { address: 'import' };
  if (typeof raw['to'] !== 'string' || raw['id'] === undefined) {
    out.push(diagnostic(ctx, 'Invalid import block', '"to" (a resource address) and "id" are required'));
    return undefined;
  }
  const to = stripInterpolation(raw['to']);
  const sink = { ctx: { address: `import ${to}` }, diagnostics: out };
  const m = /^((?:[A-Za-z_][A-Za-z0-9_-]*)\.(?:[A-Za-z_][A-Za-z0-9_-]*))(?:\[(.+)\])?$/s.exec(to);
  if (!m) {
    out.push(
      diagnostic(
        { ...ctx, path: ['to'] },
        'Invalid import block',
        `"to" must be a managed resource address, got ${JSON.stringify(to)}`,
      ),
    );
    return undefined;
  }
  const imp: ImportConfig = { to: m[1]!, id: jsonToExpr(raw['id'], sink, ['id']) };
  if (m[2] !== undefined) imp.toKey = jsonToExpr(`\${${m[2]}}`, sink, ['to']);
  if (raw['for_each'] !== undefined && raw['for_each'] !== null)
    imp.forEach = jsonToExpr(raw['for_each'], sink, ['for_each']);
  if (raw['provider'] !== undefined && raw['provider'] !== null) {
    const p = parseProviderRef(raw['provider']);
    if (p) imp.provider = p;
    else
      out.push(
        diagnostic(
          { ...ctx, path: ['provider'] },
          'Invalid provider reference',
          JSON.stringify(raw['provider']),
        ),
      );
  }
  return imp;
}

function parseTerraformBlock(
  tf: Record<string, unknown> | undefined,
  config: StackConfig,
  out: ConfigDiagnostic[],
): void {
  if (!tf) return;
  const backend = tf['backend'];
  if (backend !== undefined) {
    if (!isObject(backend) || Object.keys(backend).length !== 1) {
      out.push(
        diagnostic(
          { address: 'terraform.backend' },
          'Invalid backend block',
          'exactly one backend type must be configured',
        ),
      );
    } else {
      const [type, cfg] = Object.entries(backend)[0]!;
      config.backend = { type, config: isObject(cfg) ? cfg : {} };
    }
  }
  // Refused with the other unsupported backends when the state is opened (state/backends/config.ts).
  if (tf['cloud'] !== undefined) config.backend = { type: 'cloud', config: {} };
  const rp = tf['required_providers'];
  if (isObject(rp)) {
    for (const [name, spec] of Object.entries(rp)) {
      const req: RequiredProvider = {};
      if (typeof spec === 'string') req.version = spec;
      else if (isObject(spec)) {
        if (typeof spec['source'] === 'string') req.source = spec['source'];
        if (typeof spec['version'] === 'string') req.version = spec['version'];
      }
      config.requiredProviders[name] = req;
    }
  }
  if (typeof tf['required_version'] === 'string') config.requiredVersion = tf['required_version'];
}
