import { z } from 'zod';
import { VMC_MAX_COLUMNS, VMC_MAX_ROWS, VMC_MODULES } from '@vend/protocol';

const aisle = z
  .number()
  .int()
  .min(1)
  .max(VMC_MAX_ROWS * VMC_MAX_COLUMNS);
const count = z.number().int().min(0).max(1_000_000);
const ms = z.number().int().min(0).max(3_600_000);
const direction = z.enum(['toHost', 'toBoard']);
const vmcVersion = z
  .string()
  .regex(/^(\d|[1-9]\d|1[01]\d|12[0-7])\.(\d|[1-9]\d|1[01]\d|12[0-7])\.(\d|[1-9]\d|1[01]\d|12[0-7])$/, 'major.minor.patch, each 0..127');

/** Board geometry and timing, as flags and scenario files give them. */
export const boardConfigSchema = z
  .object({
    module: z.enum(VMC_MODULES),
    rows: z.number().int().min(1).max(VMC_MAX_ROWS),
    columnsPerRow: z.number().int().min(1).max(VMC_MAX_COLUMNS),
    vmcVersion,
    stock: z.number().int().min(0).max(999),
    motorMs: z.number().int().min(1).max(10_000),
    liftMsPerRow: z.number().int().min(0).max(5_000),
    dropMs: z.number().int().min(0).max(5_000),
  })
  .partial()
  .strict();
export type BoardConfigInput = z.infer<typeof boardConfigSchema>;

/**
 * Everything QA can do to a running simulator, one object per action. The same shapes are accepted
 * by the control port (POST /actions), scenario files (steps) and, through flags, the command line.
 */
export const simActionSchema = z.discriminatedUnion('do', [
  z.object({ do: z.literal('jam'), aisle }).strict(),
  z.object({ do: z.literal('unjam'), aisle }).strict(),
  z.object({ do: z.literal('empty'), aisle }).strict(),
  z.object({ do: z.literal('stock'), aisle, count: z.number().int().min(0).max(999) }).strict(),
  z.object({ do: z.literal('motor'), aisle, present: z.boolean() }).strict(),
  z.object({ do: z.literal('dropAcks'), count }).strict(),
  z.object({ do: z.literal('delayAcks'), ms, count: count.optional() }).strict(),
  z.object({ do: z.literal('corrupt'), count, direction: direction.default('toHost') }).strict(),
  z.object({ do: z.literal('loseFrames'), count, direction: direction.default('toHost') }).strict(),
  z.object({ do: z.literal('withholdResults'), count }).strict(),
  z.object({ do: z.literal('liftFault'), on: z.boolean() }).strict(),
  z.object({ do: z.literal('dropSensor'), healthy: z.boolean() }).strict(),
  z.object({ do: z.literal('missDrops'), count }).strict(),
  z.object({ do: z.literal('busy'), ms }).strict(),
  z.object({ do: z.literal('unplug'), forMs: ms.optional() }).strict(),
  z.object({ do: z.literal('replug') }).strict(),
  z.object({ do: z.literal('reboot'), vmcVersion: vmcVersion.optional() }).strict(),
  z.object({ do: z.literal('clearFaults') }).strict(),
]);
export type SimAction = z.infer<typeof simActionSchema>;

export const ACTION_NAMES: readonly string[] = simActionSchema.options.map((o) => o.shape.do.value);

/** Parses one action, naming the problem plainly (an unknown "do" lists the known ones). */
export function parseAction(json: unknown): { ok: true; action: SimAction } | { ok: false; error: string } {
  const name = typeof json === 'object' && json !== null && 'do' in json ? (json as { do: unknown }).do : undefined;
  if (typeof name !== 'string' || !ACTION_NAMES.includes(name)) {
    return { ok: false, error: `unknown action ${JSON.stringify(name ?? null)}; known: ${ACTION_NAMES.join(', ')}` };
  }
  const r = simActionSchema.safeParse(json);
  if (!r.success) return { ok: false, error: `${name}: ${r.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` };
  return { ok: true, action: r.data };
}
export type SimActionInput = z.input<typeof simActionSchema>;

/** One line per action, for --help and the control port's index. */
export const ACTION_HELP: readonly string[] = [
  '{"do":"jam","aisle":N}                 lane N jams: its motor stalls (result motor jam)',
  '{"do":"unjam","aisle":N}               clears the jam on lane N',
  '{"do":"empty","aisle":N}               lane N has no stock (result lane empty; motor not run)',
  '{"do":"stock","aisle":N,"count":C}     sets lane N stock to C',
  '{"do":"motor","aisle":N,"present":B}   fits or removes lane N\'s motor (result no motor)',
  '{"do":"dropAcks","count":N}            the next N ACK-class frames are never sent',
  '{"do":"delayAcks","ms":M[,"count":N]}  ACK-class frames go out M ms late (N of them; default all until clearFaults)',
  '{"do":"corrupt","count":N[,"direction":"toHost"|"toBoard"]}  one byte of each of the next N frames is damaged',
  '{"do":"loseFrames","count":N[,"direction":"toHost"|"toBoard"]}  the next N frames vanish on the line',
  '{"do":"withholdResults","count":N}     the next N dispenses never report a result, not even when asked again',
  '{"do":"liftFault","on":B}              the Y-axis lift cannot reach rows (result lift fault)',
  '{"do":"dropSensor","healthy":B}        a blind drop sensor sees no product (result drop not detected)',
  '{"do":"missDrops","count":N}           the next N vends drop nothing (product caught on the spring)',
  '{"do":"busy","ms":M}                   the board reports busy for M ms (result busy)',
  '{"do":"unplug"[,"forMs":M]}            the device disappears (and comes back after M ms)',
  '{"do":"replug"}                        the device comes back',
  '{"do":"reboot"[,"vmcVersion":"x.y.z"]}  power cycle: the board forgets its last frame and gets a new boot id (restarting with that firmware)',
  '{"do":"clearFaults"}                   clears every fault above (stock and motors stay as they are)',
];
