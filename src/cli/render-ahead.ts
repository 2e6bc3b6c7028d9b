/**
 * The text of each resource rendered while the rest of the plan still waits on the cluster, so that
 * after the last answer only the assembly is left (a plan of 200 new jobs renders 400 KB of text).
 *
 * Each instance's change and block are built from its plan alone (an InstancePlan never changes once
 * recorded), exactly as printPlan would build them at the end; printPlan then takes them instead.
 * The blocks are kept unredacted: renderText scrubs the assembled text with the plan's secrets, all
 * of them known only then, so the second net covers them as it covers any block.
 */
import { instanceChange, mentionedInText } from '../engine/plan/model';
import type { InstancePlan } from '../engine/plan/types';
import { isShown, makeStyle, renderResourceText, type ResourceChange, type Style } from '../engine/render';

interface Rendered {
  change: ResourceChange;
  /** Absent for a change the text does not list (a no-op that neither moves nor imports). */
  block?: readonly string[];
}

export class RenderAhead {
  private readonly style: Style;
  private readonly done = new WeakMap<InstancePlan, Rendered>();
  private readonly blocks = new WeakMap<ResourceChange, readonly string[]>();
  private readonly queue: InstancePlan[] = [];
  private next = 0;
  private scheduled = false;

  constructor(readonly color: boolean) {
    this.style = makeStyle(color);
  }

  /**
   * For PlanOptions.onInstance: queued, and rendered when the event loop has nothing else to do; an
   * instance the text does not mention is never asked for (printPlan leaves it out of the model).
   */
  readonly note = (ip: InstancePlan): void => {
    if (!mentionedInText(ip)) return;
    this.queue.push(ip);
    if (!this.scheduled) this.schedule();
  };

  /** For planModel: the change built ahead (or now, for one not rendered yet). */
  readonly changeOf = (ip: InstancePlan): ResourceChange => this.rendered(ip).change;

  /** For renderText: the block of a change this object built. */
  readonly blockOf = (rc: ResourceChange): readonly string[] | undefined => this.blocks.get(rc);

  private rendered(ip: InstancePlan): Rendered {
    let r = this.done.get(ip);
    if (r === undefined) {
      const change = instanceChange(ip);
      // Joined now: the assembly then joins one string per resource instead of 100 lines.
      r = isShown(change)
        ? { change, block: [renderResourceText(change, this.style).join('\n')] }
        : { change };
      this.done.set(ip, r);
      if (r.block) this.blocks.set(change, r.block);
    }
    return r;
  }

  /**
   * One instance per turn of the event loop (setImmediate runs after the I/O that is ready), so an
   * answer from the cluster never waits behind a run of renderings. Not unref'd: an unref'd
   * immediate lets the loop block in its poll for I/O, and the queue would only move on answers.
   */
  private schedule(): void {
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      const ip = this.queue[this.next++];
      if (ip !== undefined) this.rendered(ip);
      if (this.next < this.queue.length) this.schedule();
      else {
        this.queue.length = 0;
        this.next = 0;
      }
    });
  }
}
