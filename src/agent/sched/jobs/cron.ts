/** Cron specs of periodic jobs (cron-parser understands the 5- and 6-field forms and @macros Nomad accepts). */
import { CronExpressionParser } from 'cron-parser';

export interface Cron {
  next(after: Date): Date;
}

export function parseCron(spec: string, timeZone?: string): Cron {
  if (!spec.trim()) throw new Error('empty cron spec');
  const tz = timeZone || 'UTC';
  CronExpressionParser.parse(spec, { currentDate: new Date(), tz });
  return {
    next(after: Date): Date {
      return CronExpressionParser.parse(spec, { currentDate: after, tz }).next().toDate();
    },
  };
}
