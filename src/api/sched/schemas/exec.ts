import { z } from 'zod';

/*
 * WebSocket frames of /v1/client/allocation/<id>/exec. Byte payloads are base64 strings. Snake-case
 * names are as the service sends them (they are not Go struct names).
 */

export const ExecStreamDataSchema = z.looseObject({
  data: z.string().optional(),
  close: z.boolean().optional(),
});
export type ExecStreamData = z.infer<typeof ExecStreamDataSchema>;

export const ExecAuthFrameSchema = z.object({
  version: z.literal(1),
  auth_token: z.string(),
});
export type ExecAuthFrame = z.infer<typeof ExecAuthFrameSchema>;

export const ExecTtySizeSchema = z.object({
  height: z.int().nonnegative(),
  width: z.int().nonnegative(),
});

/**
 * A client-to-service frame: stdin data or close, a terminal resize, or a heartbeat (`{}`). The auth
 * frame is separate because it is only valid first.
 */
export const ExecRequestFrameSchema = z.looseObject({
  stdin: ExecStreamDataSchema.optional(),
  tty_size: ExecTtySizeSchema.optional(),
});
export type ExecRequestFrame = z.infer<typeof ExecRequestFrameSchema>;

/** A service-to-client frame: stdout/stderr data or close, the exit, or a heartbeat (`{}`). */
export const ExecResponseFrameSchema = z.looseObject({
  stdout: ExecStreamDataSchema.optional(),
  stderr: ExecStreamDataSchema.optional(),
  exited: z.boolean().optional(),
  result: z.looseObject({ exit_code: z.number().optional() }).nullish(),
});
export type ExecResponseFrame = z.infer<typeof ExecResponseFrameSchema>;
