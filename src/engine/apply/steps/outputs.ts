/**
 * Outputs at apply time, from what now exists: written to the state (outputs the configuration
 * dropped are removed). An output whose precondition fails keeps its old value and fails the apply. One that cannot be computed is left out, and reported only when nothing
 * else failed (a failed resource already explains it).
 */
import { checkOutputPreconditions, diagnosticFromError, evaluateOutput } from '../../config';
import { containsUnknown } from '../../../provider/values';
import type { ApplyContext } from '../context';

export async function applyOutputs(ctx: ApplyContext): Promise<void> {
  const { plan, writer } = ctx.opts;
  const { result } = ctx;
  await writer.update((st) => {
    for (const name of Object.keys(st.outputs()))
      if (!ctx.config.outputs.has(name) || plan.mode === 'destroy') st.removeOutput(name);
    if (plan.mode === 'destroy') return;
    for (const o of ctx.config.outputs.values()) {
      try {
        // Checked again now that every value is known: at plan time an unknown one was deferred.
        const failure = checkOutputPreconditions(o, ctx.scope()).failures[0];
        if (failure) {
          result.failed.push({ address: `output.${o.name}`, message: failure.summary });
          continue;
        }
        const value = evaluateOutput(o, ctx.scope());
        if (containsUnknown(value)) continue;
        st.setOutput(o.name, value, { sensitive: o.sensitive });
        result.outputs[o.name] = { value, sensitive: o.sensitive };
      } catch (err) {
        if (result.failed.length === 0) {
          result.failed.push({
            address: `output.${o.name}`,
            message: diagnosticFromError({ address: `output.${o.name}` }, err).summary,
          });
        }
      }
    }
  });
}
