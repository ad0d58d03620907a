import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Clock } from '@vend/protocol';
import { boardConfigSchema, parseAction } from './actions.ts';
import type { BoardConfigInput, SimAction } from './actions.ts';
import type { SimLog, VmcSimulator } from './simulator.ts';

export interface ScenarioStep {
  /** Milliseconds after the simulator starts. */
  at?: number;
  /** Right after the board accepts its Nth dispense request (1-based). */
  afterDispenses?: number;
  action: SimAction;
}

export interface Scenario {
  board?: BoardConfigInput;
  seed?: number;
  steps: ScenarioStep[];
}

const stepSchema = z
  .looseObject({
    at: z.number().int().min(0).max(86_400_000).optional(),
    afterDispenses: z.number().int().min(1).optional(),
  })
  .transform((raw, ctx): ScenarioStep => {
    const { at, afterDispenses, ...rest } = raw;
    if (at !== undefined && afterDispenses !== undefined) ctx.addIssue({ code: 'custom', message: 'give "at" or "afterDispenses", not both' });
    const parsed = parseAction(rest);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    const step: ScenarioStep = { action: parsed.action };
    if (at !== undefined) step.at = at;
    if (afterDispenses !== undefined) step.afterDispenses = afterDispenses;
    return step;
  });

export const scenarioSchema = z
  .object({
    board: boardConfigSchema.optional(),
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    steps: z.array(stepSchema).max(10_000).default([]),
  })
  .strict();

/** Every problem in a scenario, one per line, with the path to it. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `  ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('\n');
}

export function parseScenario(json: unknown): Scenario {
  const r = scenarioSchema.safeParse(json);
  if (!r.success) throw new Error(`invalid scenario:\n${describeIssues(r.error)}`);
  const out: Scenario = { steps: r.data.steps };
  if (r.data.board) out.board = r.data.board;
  if (r.data.seed !== undefined) out.seed = r.data.seed;
  return out;
}

export function loadScenarioFile(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read scenario ${path}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new Error(`scenario ${path} is not JSON: ${(e as Error).message}`);
  }
  return parseScenario(json);
}

/** Schedules a scenario's steps on a running simulator; returns a function that cancels what is left. */
export function runScenario(sim: VmcSimulator, steps: ScenarioStep[], clock: Clock, log: SimLog = () => {}): () => void {
  const timers: unknown[] = [];
  let cancelled = false;
  const apply = (s: ScenarioStep): void => {
    if (cancelled) return;
    sim.apply(s.action).catch((e: unknown) => log('scenario step failed', { step: s, error: String(e) }));
  };
  for (const s of steps) {
    if (s.afterDispenses === undefined) timers.push(clock.setTimeout(() => apply(s), s.at ?? 0));
  }
  const counted = steps.filter((s) => s.afterDispenses !== undefined);
  if (counted.length) sim.onDispense((n) => counted.filter((s) => s.afterDispenses === n).forEach(apply));
  return () => {
    cancelled = true;
    for (const t of timers) clock.clearTimeout(t);
  };
}
