/**
 * Terraform's two warnings about `-target` (our `--target`): one on every targeted plan, one after a
 * targeted apply, since both may leave out changes the configuration asks for.
 */
import type { Diagnostic } from '../../provider/values';

const NOT_ROUTINE =
  'The --target option is not for routine use, and is provided only for exceptional situations such as recovering from errors or mistakes, or when the engine specifically suggests to use it as part of an error message.';

export function targetingPlanWarning(): Diagnostic {
  return {
    severity: 'warning',
    summary: 'Resource targeting is in effect',
    detail: `You are creating a plan with the --target option, which means that the result of this plan may not represent all of the changes requested by the current configuration.\n\n${NOT_ROUTINE}`,
  };
}

export function targetingApplyWarning(command: string): Diagnostic {
  return {
    severity: 'warning',
    summary: 'Applied changes may be incomplete',
    detail: `The plan was created with the --target option in effect, so some changes requested in the configuration may have been ignored and the output values may not be fully updated. Run the following command to verify that no other changes are pending:\n    ${command}\n\n${NOT_ROUTINE.replace('The --target option is', 'Note that the --target option is')}`,
  };
}
