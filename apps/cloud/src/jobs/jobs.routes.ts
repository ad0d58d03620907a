import { Router } from 'express';
import { z } from 'zod';
import { defineRoute, type RouteKit } from '../http/route.ts';
import type { LoopStatus } from './loop.ts';

/** The sweeps whose status the sandbox shows, by name (the composition root's background jobs answer it). */
export interface SweepStatuses {
  status(name: 'refund-sweep' | 'dispense-decision' | 'rollout-sweep'): LoopStatus;
}

const LoopStatusData = z
  .object({
    name: z.string(),
    description: z.string(),
    pod: z.string(),
    enabled: z.boolean(),
    running: z.boolean(),
    lease: z.enum(['in-process', 'postgres', 'redis']),
    leader: z.boolean(),
    intervalSeconds: z.number(),
    ticks: z.number().int(),
    sweeps: z.number().int(),
    followerSkips: z.number().int(),
    resolved: z.number().int(),
    errors: z.number().int(),
    lastError: z.string().nullable(),
    lastTickAt: z.string().nullable(),
    lastSweepAt: z.string().nullable(),
    workInstalled: z.boolean(),
    timeoutSeconds: z.number().int().optional(),
    graceSeconds: z.number().int().optional(),
  })
  .loose();

/** Liveness/status of the background loops (spec 1 §4.1): plain JSON without the envelope, no credential. */
export function jobsRoutes(kit: RouteKit, jobs: SweepStatuses): Router {
  const r = Router();
  const loops = [
    ['refund-sweep', 'Refund sweep status: paid orders never vended become owed refunds'],
    ['dispense-decision', 'Dispense-decision loop status: missing outcomes ruled failed after timeoutSeconds'],
    ['rollout-sweep', 'Rollout sweep status'],
  ] as const;
  for (const [name, summary] of loops) {
    defineRoute(
      r,
      kit,
      { method: 'get', path: `/sandbox/${name}`, tag: 'sandbox', summary, auth: 'none', envelope: false, response: LoopStatusData, errors: [] },
      (_input, _req, res) => {
        res.json(jobs.status(name));
      },
    );
  }
  return r;
}
