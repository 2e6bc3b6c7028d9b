/**
 * The check every backend makes before it replaces a state: same lineage as the state it read (a
 * different lineage is another state altogether) and a serial that does not go back. Terraform
 * makes the same check when a state is pushed over another.
 */
import { BackendError } from './types';

interface Meta {
  lineage: string;
  serial: number;
}

/** Lineage and serial of a state's text, without decoding every resource when it is large. */
export function metaOf(text: string): Meta | undefined {
  const lineage = /"lineage":\s*"([^"]*)"/.exec(text)?.[1];
  const serial = /"serial":\s*(\d+)/.exec(text)?.[1];
  if (lineage === undefined || serial === undefined) return undefined;
  // A match is a slice that keeps the whole text alive (V8 sliced strings): kept for the run, that
  // was the whole state file's text for as long as the store is open. The copy is its own string.
  return { lineage: ownCopy(lineage), serial: Number(serial) };
}

function ownCopy(s: string): string {
  return JSON.parse(JSON.stringify(s)) as string;
}

export class SerialGuard {
  private last: Meta | undefined;

  constructor(private readonly where: string) {}

  /** Remembers the stored state's lineage and serial (call with what was read). */
  observe(text: string | undefined): void {
    if (text === undefined || text.trim() === '') return;
    this.last = metaOf(text);
  }

  check(next: Meta): void {
    const last = this.last;
    if (!last || last.serial === 0) return;
    if (last.lineage !== next.lineage) {
      throw new BackendError(
        `${this.where}: refusing to replace the state of lineage ${last.lineage} with one of lineage ${next.lineage}: they are different states`,
      );
    }
    if (next.serial < last.serial) {
      throw new BackendError(
        `${this.where}: refusing to replace the state at serial ${last.serial} with an older one (serial ${next.serial})`,
      );
    }
  }

  wrote(next: Meta): void {
    this.last = next;
  }
}
