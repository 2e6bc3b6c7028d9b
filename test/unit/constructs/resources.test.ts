import { TerraformStack, TerraformVariable, Testing } from 'cdktf';
import {
  AuthMethod,
  Peering,
  PeeringToken,
  RegNamespace,
  RegProvider,
  SchedNamespace,
  SchedProvider,
} from '../../../constructs';

function newStack(): TerraformStack {
  const stack = new TerraformStack(Testing.app(), 'test');
  new SchedProvider(stack, 'sched');
  new RegProvider(stack, 'reg', { token: 'provider-secret-token' });
  return stack;
}

type Resources = Record<string, Record<string, Record<string, unknown>>>;

function synth(stack: TerraformStack): { resource: Resources; provider: Record<string, unknown[]> } {
  return JSON.parse(Testing.synth(stack, true)) as {
    resource: Resources;
    provider: Record<string, unknown[]>;
  };
}

function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

describe('typed registry and scheduler resources', () => {
  it('synthesize their Terraform types and snake_case attributes', () => {
    const stack = newStack();
    new SchedNamespace(stack, 'apps', {
      name: 'apps',
      description: 'Application jobs',
      meta: { team: 'web' },
    });
    new RegNamespace(stack, 'team', { name: 'team-a', policyDefaults: ['read-only'] });
    new AuthMethod(stack, 'k8s', {
      name: 'k8s',
      type: 'kubernetes',
      tokenLocality: 'local',
      maxTokenTtl: '1h',
      config: { Host: 'https://k8s.example:6443', ServiceAccountJWT: 'eyJ.secret.jwt' },
      namespaceRule: [{ selector: 'serviceaccount.namespace==team-a', bindNamespace: 'team-a' }],
    });
    const out = synth(stack);
    expect(out.resource['sched_namespace']!['apps']).toEqual({
      name: 'apps',
      description: 'Application jobs',
      meta: { team: 'web' },
    });
    expect(out.resource['reg_namespace']!['team']).toMatchObject({
      name: 'team-a',
      policy_defaults: ['read-only'],
    });
    const am = out.resource['reg_acl_auth_method']!['k8s']!;
    expect(am).toMatchObject({
      name: 'k8s',
      type: 'kubernetes',
      token_locality: 'local',
      max_token_ttl: '1h',
      namespace_rule: [{ selector: 'serviceaccount.namespace==team-a', bind_namespace: 'team-a' }],
    });
    // An object config is written as canonical JSON text, the attribute's Terraform type.
    expect(am['config']).toBe('{"Host":"https://k8s.example:6443","ServiceAccountJWT":"eyJ.secret.jwt"}');
    expect(out.provider['reg']).toEqual([{ token: 'provider-secret-token' }]);
  });

  it('connects a peering to the peer token resource through a reference', () => {
    const stack = newStack();
    const token = new PeeringToken(stack, 'to-west', { peerName: 'west', meta: { env: 'prod' } });
    new Peering(stack, 'from-east', { peerName: 'east', peeringToken: token });
    const out = synth(stack);
    expect(out.resource['reg_peering_token']!['to-west']).toEqual({
      peer_name: 'west',
      meta: { env: 'prod' },
    });
    expect(out.resource['reg_peering']!['from-east']).toEqual({
      peer_name: 'east',
      peering_token: '${reg_peering_token.to-west.peering_token}',
    });
  });

  it('fail synth naming construct path, prop and rule, with the providers own rules', () => {
    const stack = newStack();
    new SchedNamespace(stack, 'ns', { name: 'no spaces allowed', description: 'x'.repeat(300) });
    new RegNamespace(stack, 'rns', { name: '-dash' });
    new AuthMethod(stack, 'oidc', {
      name: 'oidc',
      type: 'oidc',
      maxTokenTtl: 'forever',
      config: { OIDCClientSecret: 'hunter2-client-secret' },
      namespaceRule: [{ bindNamespace: '' }],
    });
    new PeeringToken(stack, 'pt', { peerName: 'Not_A_Label' });
    new Peering(stack, 'p', { peerName: 'east', peeringToken: '' });
    const message = thrown(() => synth(stack));
    expect(message).toContain('[test/ns] name: must be 1-128 letters, digits or dashes');
    expect(message).toContain('[test/ns] description: must be at most 256 characters');
    expect(message).toMatch(/\[test\/rns\] name: must be a valid DNS hostname label/);
    expect(message).toMatch(/\[test\/oidc\] maxTokenTtl: must be a duration/);
    expect(message).toContain('[test/oidc] namespaceRule[0].bindNamespace: must not be empty');
    expect(message).toMatch(/\[test\/pt\] peerName: must be a valid DNS hostname label/);
    expect(message).toContain('[test/p] peeringToken: must not be empty');
    // Secrets are named by their field, never shown.
    expect(message).not.toContain('hunter2');
    expect(message).not.toContain('provider-secret-token');
  });

  it('leaves values known only at deploy time to the provider', () => {
    const stack = newStack();
    const name = new TerraformVariable(stack, 'ns_name', { type: 'string' });
    const peerToken = new TerraformVariable(stack, 'peer_token', { type: 'string', sensitive: true });
    new RegNamespace(stack, 'team', { name: name.stringValue });
    new Peering(stack, 'p', { peerName: 'east', peeringToken: peerToken.stringValue });
    const out = synth(stack);
    expect(out.resource['reg_namespace']!['team']!['name']).toBe('${var.ns_name}');
    expect(out.resource['reg_peering']!['p']!['peering_token']).toBe('${var.peer_token}');
  });
});
