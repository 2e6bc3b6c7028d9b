import type { Attribute, Block, Expr } from './ast';
import { ConvertError, convertTo, toBool, type TypeConstraint } from './convert';
import { JobspecError, formatRange, type Range } from './errors';
import { evaluate, type EvalContext } from './evaluate';
import { parseHcl } from './parser';
import type { HclObject, HclValue } from './values';

/*
 * Input variables (`variable` and `variables` blocks) with values from a variable file, and
 * `locals`. Like jobspec2 every declared variable must end up with a value, even if unused.
 */

interface Validation {
  condition: Expr;
  message: string;
  range: Range;
}

interface Variable {
  name: string;
  type: TypeConstraint | undefined;
  value: HclValue | undefined;
  from: 'default' | 'varfile';
  valueRange: Range | undefined;
  range: Range;
  validations: Validation[];
}

const NO_VARS = (text: string): EvalContext => ({
  text,
  variables: undefined,
  locals: undefined,
  scope: new Map(),
  keepUnknown: false,
});

function fail(summary: string, detail: string, range: Range | undefined): never {
  throw new JobspecError(summary, detail, range);
}

/** Reads a type constraint expression: `string`, `list(number)`, `object({a = string})`, ... */
function typeFromExpr(e: Expr): TypeConstraint {
  const bad = (): never =>
    fail(
      'Invalid type specification',
      'A type specification is either a primitive type keyword (bool, number, string), "any", or a complex type constructor call, like list(string).',
      e.range,
    );
  if (e.type === 'scope' && e.steps.length === 0) {
    if (e.root === 'string' || e.root === 'number' || e.root === 'bool' || e.root === 'any')
      return { kind: e.root };
    return bad();
  }
  if (e.type !== 'call' || e.args.length !== 1) return bad();
  const arg = e.args[0] as Expr;
  switch (e.name) {
    case 'list':
    case 'set':
    case 'map':
      return { kind: e.name, elem: typeFromExpr(arg) };
    case 'object': {
      if (arg.type !== 'object') return bad();
      const attrs: Record<string, TypeConstraint> = {};
      for (const item of arg.items) {
        if (item.key.type !== 'literal' || typeof item.key.value !== 'string') return bad();
        attrs[item.key.value] = typeFromExpr(item.value);
      }
      return { kind: 'object', attrs };
    }
    case 'tuple':
      if (arg.type !== 'tuple') return bad();
      return { kind: 'tuple', elems: arg.items.map(typeFromExpr) };
    default:
      return bad();
  }
}

function convertFor(v: Variable, value: HclValue, range: Range, summary: string): HclValue {
  if (!v.type) return value;
  try {
    return convertTo(value, v.type);
  } catch (e) {
    if (e instanceof ConvertError) {
      fail(
        summary,
        `The value for ${v.name} is not compatible with the variable's type constraint: ${e.message}.`,
        range,
      );
    }
    throw e;
  }
}

function attrMap(attrs: Attribute[]): Map<string, Attribute> {
  return new Map(attrs.map((a) => [a.name, a]));
}

function decodeVariableBlock(b: Block, text: string): Variable {
  if (b.labels.length !== 1)
    fail('Missing name for variable', 'All variable blocks must have 1 labels (name).', b.defRange);
  const name = b.labels[0] as string;
  if (!/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
    fail(
      'Invalid variable name',
      'A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.',
      b.labelRanges[0] as Range,
    );
  }
  const attrs = attrMap(b.body.attributes);
  for (const a of b.body.attributes) {
    if (!['description', 'default', 'type'].includes(a.name)) {
      fail('Unsupported argument', `An argument named "${a.name}" is not expected here.`, a.nameRange);
    }
  }
  const v: Variable = {
    name,
    type: undefined,
    value: undefined,
    from: 'default',
    valueRange: undefined,
    range: b.defRange,
    validations: [],
  };
  const typeAttr = attrs.get('type');
  if (typeAttr) v.type = typeFromExpr(typeAttr.expr);
  const def = attrs.get('default');
  if (def) {
    v.value = convertFor(
      v,
      evaluate(def.expr, NO_VARS(text)),
      def.expr.range,
      'Invalid default value for variable',
    );
    v.valueRange = def.expr.range;
  }
  for (const vb of b.body.blocks) {
    if (vb.type !== 'validation')
      fail('Unsupported block type', `Blocks of type "${vb.type}" are not expected here.`, vb.typeRange);
    const va = attrMap(vb.body.attributes);
    const cond = va.get('condition');
    const msg = va.get('error_message');
    if (!cond || !msg) {
      const missing = cond ? 'error_message' : 'condition';
      fail(
        'Missing required argument',
        `The argument "${missing}" is required, but no definition was found.`,
        vb.defRange,
      );
    }
    const message = evaluate(msg.expr, NO_VARS(text));
    if (typeof message !== 'string' || message === '') {
      fail(
        'Invalid validation error message',
        'An empty string is not a valid nor useful error message.',
        msg.expr.range,
      );
    }
    v.validations.push({ condition: cond.expr, message, range: vb.defRange });
  }
  return v;
}

/** Declared variables, from `variable "x" {}` and `variables { x = ... }` blocks. */
export function declareVariables(blocks: Block[], text: string): Map<string, Variable> {
  const vars = new Map<string, Variable>();
  const add = (v: Variable, at: Range): void => {
    if (vars.has(v.name)) fail('Duplicate variable', `Duplicate ${v.name} variable definition found.`, at);
    vars.set(v.name, v);
  };
  for (const b of blocks) {
    if (b.type === 'variable') add(decodeVariableBlock(b, text), b.defRange);
    if (b.type === 'variables') {
      const nested = b.body.blocks[0];
      if (nested) fail('Unexpected block', 'Blocks are not allowed in a variables block.', nested.typeRange);
      for (const a of b.body.attributes) {
        add(
          {
            name: a.name,
            type: undefined,
            value: evaluate(a.expr, NO_VARS(text)),
            from: 'default',
            valueRange: a.expr.range,
            range: a.range,
            validations: [],
          },
          a.nameRange,
        );
      }
    }
  }
  return vars;
}

/** Applies values from variable-file text (`name = value` lines). */
export function applyVariableFile(vars: Map<string, Variable>, content: string, filename: string): void {
  if (!content.trim()) return;
  const body = parseHcl(content, filename);
  for (const b of body.blocks) {
    if (b.type === 'variable') {
      const name = b.labels[0] ?? '';
      fail(
        'Variable declaration in a .var file',
        `A .var file is used to assign values to variables that have already been declared in job files, not to declare new variables. To declare variable "${name}", place this block in one of your job files\n\nTo set a value for this variable in ${filename}, use the definition syntax instead:\n    ${name} = <value>`,
        b.typeRange,
      );
    }
    fail('Unexpected block', 'Blocks are not allowed in a variables file.', b.typeRange);
  }
  for (const a of body.attributes) {
    const v = vars.get(a.name);
    if (!v) {
      fail(
        'Undefined variable',
        `A "${a.name}" variable was set but was not found in known variables. To declare variable "${a.name}", place this block in your job files`,
        a.range,
      );
    }
    v.value = convertFor(v, evaluate(a.expr, NO_VARS(content)), a.expr.range, 'Invalid value for variable');
    v.from = 'varfile';
    v.valueRange = a.expr.range;
  }
}

/** The `var` object; fails on the first variable without a value or failing its validation. */
export function variableValues(vars: Map<string, Variable>, text: string): HclObject {
  const out: HclObject = {};
  for (const v of vars.values()) {
    if (v.value === undefined) {
      fail(
        `Unset variable "${v.name}"`,
        'A used variable must be set or have a default value; see https://developer.hashicorp.com/nomad/docs/job-specification/hcl2/variables for details.',
        v.range,
      );
    }
    out[v.name] = v.value;
  }
  for (const v of vars.values()) {
    for (const rule of v.validations) {
      const ctx: EvalContext = { ...NO_VARS(text), variables: { [v.name]: v.value as HclValue }, locals: {} };
      const result = evaluate(rule.condition, ctx);
      let ok: boolean;
      try {
        ok = toBool(result);
      } catch {
        fail(
          'Invalid variable validation result',
          'Validation condition expression must return either true or false.',
          rule.condition.range,
        );
      }
      if (!ok) {
        fail(
          `Invalid value for ${v.from} variable`,
          `${rule.message}\n\nThis was checked by the validation rule at ${formatRange(rule.range)}.`,
          v.valueRange ?? rule.range,
        );
      }
    }
  }
  return out;
}

/** Evaluates `locals` blocks in dependency order (retrying those that refer to later ones). */
export function evaluateLocals(blocks: Block[], base: EvalContext): HclObject {
  const pending: Attribute[] = [];
  const seen = new Set<string>();
  for (const b of blocks) {
    if (b.type !== 'locals') continue;
    const nested = b.body.blocks[0];
    if (nested) fail('Unexpected block', 'Blocks are not allowed in a locals block.', nested.typeRange);
    for (const a of b.body.attributes) {
      if (seen.has(a.name))
        fail('Duplicate value in locals', `Duplicate ${a.name} definition found.`, a.nameRange);
      seen.add(a.name);
      pending.push(a);
    }
  }
  const locals: HclObject = {};
  while (pending.length > 0) {
    let progressed = false;
    let lastError: unknown;
    for (let i = 0; i < pending.length;) {
      const a = pending[i] as Attribute;
      try {
        locals[a.name] = evaluate(a.expr, { ...base, locals });
        pending.splice(i, 1);
        progressed = true;
      } catch (e) {
        if (!(e instanceof JobspecError)) throw e;
        lastError = e;
        i++;
      }
    }
    if (!progressed) throw lastError;
  }
  return locals;
}
