/**
 * The handlers the constructs validate with, by provider, loaded at the first validation rather than
 * with the constructs: an app of scheduler resources never loads the registry's provider, and neither
 * loads the scheduler's client (transport, undici, the exec channel), since validate() makes no request.
 */
import { PROVIDER_FACTORIES } from '../src/engine/providers';
import type { Provider } from '../src/provider/resource';
import type { SchedProviderContext } from '../src/provider/sched/context';

/** The providers whose handlers this library validates with, by name. */
export type ValidatingProvider = 'sched' | 'reg';

type Handlers = Pick<Provider, 'resources'>;

const NO_CLIENT: SchedProviderContext = {
  get client(): never {
    throw new Error('a synth-time validation asked for the scheduler client');
  },
  defaults: {},
  redact: (text) => text,
};

/* eslint-disable @typescript-eslint/no-require-imports */
const LOADERS: Record<ValidatingProvider, () => Handlers> = {
  sched: () =>
    (
      require('../src/provider/sched/handlers') as typeof import('../src/provider/sched/handlers')
    ).schedHandlers(NO_CLIENT),
  // Configured with defaults only: the registry's client opens no connection before a request.
  reg: () => {
    const factory = PROVIDER_FACTORIES['reg'];
    if (!factory) throw new Error('no provider named reg');
    return factory().configure({}, {});
  },
};
/* eslint-enable @typescript-eslint/no-require-imports */

const loaded = new Map<ValidatingProvider, Handlers>();

export function handlersOf(name: ValidatingProvider): Handlers {
  let handlers = loaded.get(name);
  if (!handlers) {
    handlers = LOADERS[name]();
    loaded.set(name, handlers);
  }
  return handlers;
}
