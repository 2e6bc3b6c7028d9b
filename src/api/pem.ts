/** TLS material given either as PEM text or as the path of a PEM file (as Nomad's and Consul's settings take it). */
import { readFileSync } from 'node:fs';

export function readPem(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return value.includes('-----BEGIN') ? value : readFileSync(value, 'utf8');
}
