/** The light HIL templating of BindName and BindNamespace: `prefix-${serviceaccount.name}`. */
import type { RuleViolation } from '../../../api/reg/rules';
import { rule } from '../request';

const PART = /\$\{([^}]*)\}/g;
const VAR = /^\s*([A-Za-z_][A-Za-z0-9_.-]*)\s*$/;

export function checkTemplate(field: string, text: string): RuleViolation | undefined {
  if (text === '') return rule(field, 'required', 'is required');
  let bad = false;
  const rest = text.replace(PART, (_m, inner: string) => {
    if (!VAR.test(inner)) bad = true;
    return '';
  });
  if (bad || rest.includes('${'))
    return rule(
      field,
      'template',
      `must be a name or a template such as "prefix-\${serviceaccount.name}"; got ${JSON.stringify(text)}`,
    );
  return undefined;
}

/** Fills `${var}` from `vars`; undefined when a variable is missing (the rule does not apply). */
export function renderTemplate(text: string, vars: Record<string, string>): string | undefined {
  let missing = false;
  const out = text.replace(PART, (_m, inner: string) => {
    const name = VAR.exec(inner)?.[1] ?? '';
    const v = vars[name];
    if (v === undefined) missing = true;
    return v ?? '';
  });
  return missing ? undefined : out;
}
