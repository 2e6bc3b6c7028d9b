/**
 * ACL policy rules as Nomad reads them: HCL (native syntax, parsed with the jobspec's HCL parser) or
 * the JSON form of the same blocks. A `policy` disposition expands to capabilities exactly as Nomad's
 * acl package expands it, and explicit `capabilities` add to it.
 */
import { evaluate, JobspecError, parseHcl, type EvalContext, type HclValue } from '../jobspec';
import type { Body } from '../jobspec/ast';

export class PolicyRulesError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PolicyRulesError';
  }
}

export type Level = 'deny' | 'read' | 'write';

export interface NamespaceRule {
  /** A namespace name or a glob with `*`. */
  name: string;
  capabilities: string[];
}

export interface ParsedPolicy {
  namespaces: NamespaceRule[];
  node?: Level;
  agent?: Level;
  operator?: Level;
  quota?: Level;
  plugin?: 'deny' | 'read' | 'list';
}

/** The spec names Nomad's `sentinel-override` `policy-override`; both spellings mean one capability. */
export const POLICY_OVERRIDE = 'policy-override';

const NAMESPACE_CAPABILITIES = new Set([
  'deny',
  'list-jobs',
  'parse-job',
  'read-job',
  'submit-job',
  'dispatch-job',
  'read-logs',
  'read-fs',
  'alloc-exec',
  'alloc-node-exec',
  'alloc-lifecycle',
  'csi-register-plugin',
  'csi-write-volume',
  'csi-read-volume',
  'csi-list-volume',
  'csi-mount-volume',
  'host-volume-create',
  'host-volume-register',
  'host-volume-read',
  'host-volume-write',
  'host-volume-delete',
  'list-scaling-policies',
  'read-scaling-policy',
  'read-job-scaling',
  'scale-job',
  'submit-recommendation',
  'sentinel-override',
  POLICY_OVERRIDE,
]);

const READ = [
  'list-jobs',
  'parse-job',
  'read-job',
  'csi-list-volume',
  'csi-read-volume',
  'read-job-scaling',
  'list-scaling-policies',
  'read-scaling-policy',
];

const WRITE = [
  ...READ,
  'scale-job',
  'submit-job',
  'dispatch-job',
  'read-logs',
  'read-fs',
  'alloc-exec',
  'alloc-lifecycle',
  'csi-mount-volume',
  'csi-write-volume',
  'submit-recommendation',
];

const SCALE = ['list-scaling-policies', 'read-scaling-policy', 'read-job-scaling', 'scale-job'];

/** The capabilities a namespace `policy` stands for (Nomad's expandNamespacePolicy). */
export function expandNamespacePolicy(policy: string): string[] {
  switch (policy) {
    case 'deny':
      return ['deny'];
    case 'read':
      return [...READ];
    case 'write':
      return [...WRITE];
    case 'scale':
      return [...SCALE];
    default:
      return [];
  }
}

export function normalizeCapability(cap: string): string {
  return cap === 'sentinel-override' ? POLICY_OVERRIDE : cap;
}

const NAMESPACE_NAME = /^[a-zA-Z0-9-*]{1,128}$/;
const LEVELS = new Set(['deny', 'read', 'write']);
const TOP_BLOCKS = new Set([
  'namespace',
  'host_volume',
  'node_pool',
  'agent',
  'node',
  'operator',
  'quota',
  'plugin',
]);

/** Reads the `policy` and `capabilities` of one rule block, whatever its syntax. */
interface RawRule {
  policy?: string;
  capabilities?: string[];
}

function ruleFrom(value: HclValue, where: string): RawRule {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new PolicyRulesError(`Failed to parse ACL Policy: ${where}: expected a block`);
  const out: RawRule = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'policy') {
      if (typeof v !== 'string')
        throw new PolicyRulesError(`Failed to parse ACL Policy: ${where}.policy: must be a string`);
      out.policy = v;
    } else if (k === 'capabilities') {
      if (!Array.isArray(v) || v.some((c) => typeof c !== 'string'))
        throw new PolicyRulesError(
          `Failed to parse ACL Policy: ${where}.capabilities: must be a list of strings`,
        );
      out.capabilities = v as string[];
    }
    // Other keys (variables, description...) belong to features the dev agent does not enforce.
  }
  return out;
}

const LITERALS: EvalContext = {
  text: '',
  variables: undefined,
  locals: undefined,
  scope: new Map(),
  keepUnknown: false,
};

function bodyToValue(body: Body, text: string): Record<string, HclValue> {
  const ctx = { ...LITERALS, text };
  const obj: Record<string, HclValue> = {};
  for (const a of body.attributes) obj[a.name] = evaluate(a.expr, ctx);
  return obj;
}

/** Collected blocks: `namespace` and friends carry a label, `node`/`agent`/... do not. */
type Collected = { type: string; label: string | undefined; value: HclValue }[];

function collectHcl(text: string): Collected {
  const body = parseHcl(text, 'acl-policy.hcl');
  if (body.attributes.length > 0) {
    throw new PolicyRulesError(
      `Failed to parse ACL Policy: unexpected attribute "${body.attributes[0]!.name}" at top level`,
    );
  }
  return body.blocks.map((b) => {
    const value = bodyToValue(b.body, text);
    return { type: b.type, label: b.labels[0], value };
  });
}

function collectJson(text: string): Collected {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new PolicyRulesError(`Failed to parse ACL Policy: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new PolicyRulesError('Failed to parse ACL Policy: JSON rules must be an object');
  const out: Collected = [];
  for (const [type, raw] of Object.entries(parsed as Record<string, unknown>)) {
    const labelled = type === 'namespace' || type === 'host_volume' || type === 'node_pool';
    // HCL's JSON syntax allows a block type to hold an object or a list of objects.
    const items = Array.isArray(raw) ? raw : [raw];
    for (const item of items) {
      if (labelled) {
        if (item === null || typeof item !== 'object' || Array.isArray(item))
          throw new PolicyRulesError(`Failed to parse ACL Policy: ${type}: expected an object of labels`);
        for (const [label, value] of Object.entries(item as Record<string, unknown>)) {
          for (const v of Array.isArray(value) ? value : [value]) {
            out.push({ type, label, value: v as HclValue });
          }
        }
      } else out.push({ type, label: undefined, value: item as HclValue });
    }
  }
  return out;
}

/** Parses and validates rules; throws PolicyRulesError with Nomad's wording. */
export function parsePolicyRules(text: string): ParsedPolicy {
  if (text.trim() === '') throw new PolicyRulesError('Invalid policy: rules are empty');
  let blocks: Collected;
  try {
    blocks = text.trim().startsWith('{') ? collectJson(text) : collectHcl(text);
  } catch (e) {
    if (e instanceof JobspecError) throw new PolicyRulesError(`Failed to parse ACL Policy: ${e.message}`);
    throw e;
  }
  const policy: ParsedPolicy = { namespaces: [] };
  for (const b of blocks) {
    if (!TOP_BLOCKS.has(b.type))
      throw new PolicyRulesError(`Failed to parse ACL Policy: unsupported block type "${b.type}"`);
    const rule = ruleFrom(b.value, b.label === undefined ? b.type : `${b.type} "${b.label}"`);
    switch (b.type) {
      case 'namespace': {
        const name = b.label ?? '';
        if (!NAMESPACE_NAME.test(name)) throw new PolicyRulesError(`Invalid namespace name: "${name}"`);
        const caps = rule.capabilities ?? [];
        for (const c of caps) {
          if (!NAMESPACE_CAPABILITIES.has(c))
            throw new PolicyRulesError(`Invalid namespace capability '${c}' in namespace "${name}"`);
        }
        if (rule.policy !== undefined && !['deny', 'read', 'write', 'scale'].includes(rule.policy))
          throw new PolicyRulesError(`Invalid namespace policy "${rule.policy}" in namespace "${name}"`);
        const all = [...caps, ...(rule.policy ? expandNamespacePolicy(rule.policy) : [])];
        policy.namespaces.push({ name, capabilities: [...new Set(all.map(normalizeCapability))] });
        break;
      }
      case 'agent':
      case 'node':
      case 'operator':
      case 'quota': {
        if (rule.policy === undefined || !LEVELS.has(rule.policy))
          throw new PolicyRulesError(`Invalid ${b.type} policy: "${rule.policy ?? ''}"`);
        policy[b.type] = rule.policy as Level;
        break;
      }
      case 'plugin': {
        if (rule.policy !== 'deny' && rule.policy !== 'read' && rule.policy !== 'list')
          throw new PolicyRulesError(`Invalid plugin policy: "${rule.policy ?? ''}"`);
        policy.plugin = rule.policy;
        break;
      }
      default:
        // host_volume and node_pool rules are accepted but guard nothing the dev agent serves.
        break;
    }
  }
  const empty =
    policy.namespaces.length === 0 &&
    !policy.node &&
    !policy.agent &&
    !policy.operator &&
    !policy.quota &&
    !policy.plugin &&
    !blocks.some((b) => b.type === 'host_volume' || b.type === 'node_pool');
  if (empty) throw new PolicyRulesError('Invalid policy: no rules');
  return policy;
}
