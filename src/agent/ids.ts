import { randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();
export const shortId = (id: string): string => id.slice(0, 8);
