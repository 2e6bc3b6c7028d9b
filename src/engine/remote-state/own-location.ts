/** Where a stack keeps its own state, as a `terraform_remote_state` reading it would name the place. */
import type { LoadedStack } from '../project';
import { stateLocation } from './reader';
import { DEFAULT_WORKSPACE } from './types';

export function ownStateLocation(loaded: LoadedStack, workspace: string = DEFAULT_WORKSPACE): string {
  const backend = loaded.config.backend;
  const baseDir = loaded.stack.workingDirectory;
  if (!backend)
    return stateLocation({ backend: 'local', config: { path: loaded.statePath }, workspace, baseDir });
  return stateLocation({ backend: backend.type, config: backend.config, workspace, baseDir });
}
