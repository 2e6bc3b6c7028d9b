/** Namespace checks shared by every write that lands in a namespace. */
import { invalidField, notFound } from '../../http/errors';
import type { Store } from '../../store';
import type { StoredNamespace } from '../model';
import { T } from '../tables';

type Reader = Pick<Store, 'get'>;

/** A write into a namespace needs the namespace to exist and not be on its way out. */
export function requireWritableNamespace(reader: Reader, ns: string, field = 'Namespace'): StoredNamespace {
  const found = reader.get<StoredNamespace>(T.namespaces, ns);
  if (!found) throw invalidField(field, `namespace "${ns}" does not exist (rule: namespace-exists)`);
  if (found.DeletedAt)
    throw invalidField(field, `namespace "${ns}" is being deleted (rule: namespace-not-deleting)`);
  return found;
}

export function requireNamespace(reader: Reader, ns: string): StoredNamespace {
  const found = reader.get<StoredNamespace>(T.namespaces, ns);
  if (!found) throw notFound(`Namespace not found: "${ns}"`);
  return found;
}
