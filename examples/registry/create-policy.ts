/**
 * Creates the ACL policy the example's namespace links (there is no policy resource: policies are
 * usually owned by whoever runs the registry's ACL system, not by an application stack). Safe to run
 * again: an existing policy of that name is left as it is.
 *
 *   REG_HTTP_ADDR=http://127.0.0.1:8500 [REG_HTTP_TOKEN=...] npx tsx examples/registry/create-policy.ts
 */
import { NotFoundError } from '../../src/api/errors';
import { RegClient } from '../../src/api/reg/client';
import { DEFAULT_POLICY, DEFAULT_POLICY_RULES } from './policy';

/** Returns the policy's ID and whether this call created it. */
export async function ensureDefaultPolicy(reg: RegClient): Promise<{ id: string; created: boolean }> {
  try {
    const { value } = await reg.acl.policies.readByName(DEFAULT_POLICY);
    return { id: value.ID, created: false };
  } catch (err) {
    if (!(err instanceof NotFoundError)) throw err;
  }
  const policy = await reg.acl.policies.create({
    Name: DEFAULT_POLICY,
    Description: 'Default policy of the apps namespace (examples/registry)',
    Rules: DEFAULT_POLICY_RULES,
  });
  return { id: policy.ID, created: true };
}

if (require.main === module) {
  const reg = new RegClient();
  ensureDefaultPolicy(reg)
    .then(({ id, created }) => {
      process.stdout.write(`${created ? 'created' : 'found'} policy ${DEFAULT_POLICY} (${id})\n`);
    })
    .catch((err: unknown) => {
      process.stderr.write(`create-policy failed: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    })
    .finally(() => void reg.close());
}
