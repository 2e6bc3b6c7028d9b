/**
 * Resource addresses as Terraform writes them: `sched_job.web`, `sched_job.web[0]`,
 * `sched_job.web["blue"]`, `data.sched_job.current`. Used in messages, state and CLI arguments.
 */
import type { ResourceMode, ResourceRef } from '../expressions/references';

/** `undefined` for a resource without count/for_each, a number with count, a string with for_each. */
export type InstanceKey = number | string | undefined;

export interface InstanceAddress extends ResourceRef {
  key: InstanceKey;
}

export function formatInstanceKey(key: InstanceKey): string {
  if (key === undefined) return '';
  return typeof key === 'number' ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** `sched_job.web`, `data.sched_job.current`. */
export function resourceAddress(r: ResourceRef): string {
  return `${r.mode === 'data' ? 'data.' : ''}${r.type}.${r.name}`;
}

/** `sched_job.web[0]`, `sched_job.web["k"]`, or the resource address when there is no key. */
export function instanceAddress(r: ResourceRef, key: InstanceKey): string {
  return `${resourceAddress(r)}${formatInstanceKey(key)}`;
}

const NAME = '[A-Za-z_][A-Za-z0-9_-]*';
const ADDRESS_RE = new RegExp(
  `^(data\\.)?(${NAME})\\.(${NAME})(?:\\[(?:(\\d+)|"((?:[^"\\\\]|\\\\.)*)")\\])?$`,
);

/**
 * Parses `sched_job.web`, `sched_job.web[2]`, `sched_job.web["a b"]` or `data.x.y[0]`; returns
 * undefined when the text is not an address (CLI code reports it).
 */
export function parseInstanceAddress(text: string): InstanceAddress | undefined {
  const m = ADDRESS_RE.exec(text.trim());
  if (!m) return undefined;
  const [, data, type, name, index, str] = m;
  const mode: ResourceMode = data ? 'data' : 'managed';
  const key: InstanceKey =
    index !== undefined ? Number(index) : str !== undefined ? (JSON.parse(`"${str}"`) as string) : undefined;
  return { mode, type: type!, name: name!, key };
}

/** The provider a resource type belongs to by default: the part of the type before the first "_". */
export function defaultProviderName(resourceType: string): string {
  const i = resourceType.indexOf('_');
  return i < 0 ? resourceType : resourceType.slice(0, i);
}
