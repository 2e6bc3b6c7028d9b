/**
 * reg_acl_auth_method: an ACL auth method (spec 4.1). Its Config holds secrets (a service account JWT, an
 * OIDC client secret), so it is sensitive, and every value in it is masked in whatever this handler says.
 */
import { z } from 'zod';
import { formatDuration, nsToMs } from '../../api/duration';
import { NotFoundError } from '../../api/errors';
import { orNull as orNullOnMissing } from '../../api/reg/client';
import { AUTH_METHOD_NAME_RE, checkMaxTokenTtl, parseDurationMs } from '../../api/reg/rules';
import type { AuthMethod, AuthMethodCreateRequest, AuthMethodListStub } from '../../api/reg/schemas';
import type { ApplyContext, Config, PlannedChange, ResourceHandler, State } from '../resource';
import { attr } from '../schema';
import { DiagnosticsError, isUnknown, UNKNOWN, type Diagnostic } from '../values';
import { isEmpty, isPlainObject, keep, parseJsonish, sameDuration, sameJson, sameValue } from './compare';
import type { RegContext } from './context';
import { planChange } from './plan';
import { runApply, verb } from './apply';
import { guarded, type Redactor } from './redact';
import { keyAttr, refreshFromList, scopeAttr } from '../common/refresh-from-list';
import { errorAt, validateShape } from '../common/shape';

export const AUTH_METHOD_DESCRIPTION =
  'An ACL auth method of the service registry: a trusted identity provider whose identities can be exchanged for ACL tokens.';

const configValue = z.union([
  z.record(z.string(), z.unknown()),
  z.string().refine((s) => isPlainObject(parseJsonish(s)), 'must be a JSON object (or its JSON text)'),
]);

const namespaceRule = z.object({
  selector: attr(z.string().nullish(), {
    optional: true,
    description: 'Expression matched against the identity; empty matches all.',
  }),
  bind_namespace: attr(z.string().min(1, 'must not be empty'), {
    required: true,
    description: 'Namespace the token is created in when the selector matches (may be templated).',
  }),
});

export const authMethodShape = {
  id: attr(z.string(), { computed: true, description: 'The auth method name.' }),
  name: attr(z.string().regex(AUTH_METHOD_NAME_RE, 'must be 1-128 letters, digits, dashes or underscores'), {
    required: true,
    forceNew: true,
    description: 'Name of the auth method.',
  }),
  type: attr(z.string().min(1, 'must not be empty'), {
    required: true,
    forceNew: true,
    description: 'Type of the auth method (kubernetes, jwt, oidc, ...).',
  }),
  display_name: attr(z.string(), { optional: true, description: 'Name shown instead of the name.' }),
  description: attr(z.string(), { optional: true, description: 'Free-form description.' }),
  max_token_ttl: attr(
    z
      .string()
      .refine((s) => parseDurationMs(s) !== undefined, 'must be a duration such as "60s", "5m" or "1h30m"'),
    {
      optional: true,
      description: 'Longest life of tokens created by this method: 1m to 24h; required for oidc.',
    },
  ),
  token_locality: attr(z.enum(['local', 'global']), {
    optional: true,
    description: 'Whether tokens are local to the datacenter or global.',
  }),
  config: attr(configValue, {
    required: true,
    sensitive: true,
    description: 'Type-specific configuration, as a JSON object.',
  }),
  namespace: attr(z.string().min(1), {
    optional: true,
    computed: true,
    forceNew: true,
    description: 'Namespace that holds the auth method.',
  }),
  namespace_rule: attr(z.array(namespaceRule), {
    optional: true,
    block: 'list',
    description: 'Rules choosing the namespace of a token by the identity; the first match wins.',
  }),
  modify_index: attr(z.number().nullish(), {
    computed: true,
    description: 'The registry index of the last change to the auth method.',
  }),
};

const sameLocality = (a: unknown, b: unknown): boolean =>
  (isEmpty(a) ? 'local' : a) === (isEmpty(b) ? 'local' : b);

/** Namespace rules only work on a method in the default namespace (spec 2, NamespaceRule). */
function rulesNamespaceCheck(config: Config): Diagnostic[] {
  const ns = config['namespace'];
  const rules = config['namespace_rule'];
  if (typeof ns !== 'string' || ns === 'default' || !Array.isArray(rules) || rules.length === 0) return [];
  return [
    errorAt(
      ['namespace_rule'],
      'Invalid value for "namespace_rule"',
      `namespace rules require the auth method to live in the "default" namespace; this one is in "${ns}"`,
    ),
  ];
}

/** The TTL bounds and the oidc nonzero rule, which depend on the type; unknown or mistyped values wait. */
function ttlCheck(config: Config): Diagnostic[] {
  const ttl = config['max_token_ttl'];
  const type = config['type'];
  if (isUnknown(ttl) || (ttl !== undefined && ttl !== null && typeof ttl !== 'string')) return [];
  if (typeof ttl === 'string' && parseDurationMs(ttl) === undefined) return [];
  const v = checkMaxTokenTtl('max_token_ttl', ttl ?? undefined, isUnknown(type) ? undefined : type);
  return v ? [errorAt(['max_token_ttl'], 'Invalid value for "max_token_ttl"', v.detail)] : [];
}

function ruleList(v: unknown): Array<{ Selector?: string; BindNamespace: string }> {
  if (!Array.isArray(v)) return [];
  return v.map((r: Record<string, unknown>) => ({
    ...(typeof r['selector'] === 'string' && r['selector'] !== '' ? { Selector: r['selector'] } : {}),
    BindNamespace: String(r['bind_namespace']),
  }));
}

function request(planned: State): AuthMethodCreateRequest {
  const str = (k: string): string | undefined =>
    typeof planned[k] === 'string' ? (planned[k] as string) : undefined;
  const body: AuthMethodCreateRequest = {
    Name: String(planned['name']),
    Type: String(planned['type']),
    Description: str('description') ?? '',
    DisplayName: str('display_name') ?? '',
    Config: parseJsonish(planned['config']) as Record<string, unknown>,
    NamespaceRules: ruleList(planned['namespace_rule']),
  };
  const ttl = str('max_token_ttl');
  if (ttl) body.MaxTokenTTL = ttl;
  const locality = str('token_locality');
  if (locality === 'local' || locality === 'global') body.TokenLocality = locality;
  const ns = str('namespace');
  if (ns) body.Namespace = ns;
  return body;
}

function asState(m: AuthMethod, like: State | null): State {
  const ttl = typeof m.MaxTokenTTL === 'number' ? formatDuration(nsToMs(m.MaxTokenTTL)) : m.MaxTokenTTL;
  const rules = (m.NamespaceRules ?? []).map((r) => ({
    selector: isEmpty(r.Selector) ? null : r.Selector,
    bind_namespace: r.BindNamespace,
  }));
  return {
    id: m.Name,
    name: m.Name,
    type: m.Type,
    display_name: keep(like?.['display_name'], m.DisplayName),
    description: keep(like?.['description'], m.Description),
    max_token_ttl: keep(like?.['max_token_ttl'], isEmpty(ttl) || ttl === '0s' ? null : ttl, sameDuration),
    token_locality: keep(like?.['token_locality'], m.TokenLocality, sameLocality),
    config: keep(like?.['config'], m.Config ?? {}, sameJson),
    namespace: m.Namespace ?? 'default',
    namespace_rule: keep(like?.['namespace_rule'], rules),
    modify_index: m.ModifyIndex,
  };
}

/**
 * The listing's stubs lack Config and NamespaceRules, so a stub settles a refresh only through the index:
 * the same ModifyIndex the state recorded means the method is the one recorded.
 */
function unchangedByIndex(stub: AuthMethodListStub, prior: State): State | undefined {
  const recorded = prior['modify_index'];
  return typeof recorded === 'number' && recorded > 0 && stub.ModifyIndex === recorded ? prior : undefined;
}

/** An update moves the registry's index: the value it records is known only after the apply. */
function withIndexUnknown(change: PlannedChange): PlannedChange {
  if (change.action !== 'update' || !change.planned) return change;
  return { ...change, planned: { ...change.planned, modify_index: UNKNOWN } };
}

/** `name`, or `namespace/name` for a method outside the default namespace. */
function parseImportId(id: string): { name: string; namespace?: string } {
  const slash = id.indexOf('/');
  return slash < 0 ? { name: id } : { namespace: id.slice(0, slash), name: id.slice(slash + 1) };
}

export function authMethodResource(rc: RegContext): ResourceHandler {
  const { client } = rc;
  const secretsOf = (...states: Array<State | null | undefined>): Redactor =>
    rc.redactor.with((r) => {
      for (const s of states) if (s) r.addJson(parseJsonish(s['config']));
    });
  const nsOpt = (s: State): { namespace?: string } =>
    typeof s['namespace'] === 'string' && s['namespace'] !== '' ? { namespace: s['namespace'] } : {};

  const readMethod = async (name: string, opts: { namespace?: string }): Promise<AuthMethod | null> =>
    orNullOnMissing(client.authMethods.read(name, opts).then((r) => r.value));

  const create = async (planned: State): Promise<State> => {
    const body = request(planned);
    const created = await client.authMethods.create(body, nsOpt(planned));
    return asState(created, planned);
  };

  const destroy = async (prior: State): Promise<void> => {
    try {
      await client.authMethods.delete(String(prior['name']), nsOpt(prior));
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  };

  return {
    typeName: 'reg_acl_auth_method',
    description: AUTH_METHOD_DESCRIPTION,
    shape: authMethodShape,
    version: 0,

    validate: (config: Config) => [
      ...validateShape(authMethodShape, config),
      ...ttlCheck(config),
      ...rulesNamespaceCheck(config),
    ],

    plan({ prior, config }): Promise<PlannedChange> {
      return Promise.resolve(
        withIndexUnknown(
          planChange(
            {
              shape: authMethodShape,
              equal: {
                max_token_ttl: sameDuration,
                token_locality: sameLocality,
                config: sameJson,
                namespace_rule: sameValue,
              },
            },
            prior,
            config,
          ),
        ),
      );
    },

    apply(change: PlannedChange, _ctx?: ApplyContext): Promise<State | null> {
      const name = String((change.planned ?? change.prior)?.['name']);
      return runApply(
        change,
        {
          create: (planned) => create(planned),
          update: async (_prior, planned) =>
            asState(await client.authMethods.update(name, request(planned), nsOpt(planned)), planned),
          destroy,
        },
        (action) => `${verb(action)} auth method "${name}"`,
        secretsOf(change.prior, change.planned),
      );
    },

    async read(state: State): Promise<State | null> {
      const name = String(state['name']);
      const m = await guarded(`reading auth method "${name}"`, secretsOf(state), () =>
        readMethod(name, nsOpt(state)),
      );
      return m ? asState(m, state) : null;
    },

    /** One listing of stubs per namespace; a method whose index moved is read in full. */
    refreshMany: (states: readonly State[]) =>
      refreshFromList(states, {
        scopeOf: scopeAttr('namespace'),
        // A state from before indexes were recorded is read on its own.
        keyOf: (s) => (typeof s['modify_index'] === 'number' ? keyAttr('name')(s) : undefined),
        list: async (namespace) => {
          const { value } = await client.authMethods.list(namespace ? { namespace } : {});
          return new Map(value.map((m) => [m.Name, m]));
        },
        refresh: unchangedByIndex,
      }),

    async import(id: string): Promise<State> {
      const { name, namespace } = parseImportId(id);
      const m = await guarded(`importing auth method "${id}"`, rc.redactor, () =>
        readMethod(name, namespace ? { namespace } : {}),
      );
      if (!m) {
        throw new DiagnosticsError([
          { severity: 'error', summary: `Cannot import auth method "${id}"`, detail: 'no such auth method' },
        ]);
      }
      return asState(m, null);
    },
  };
}
