import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import {
  DEVICE_CREDENTIAL_HEADER,
  DEVICE_KEY_HEADER,
  DEVICE_WITNESS_HEADER,
  EQUIPMENT_NO_HEADERS,
  FLEET_SECRET_HEADER,
  SERIAL_FIELD_MAX,
  hasUnsafeChars,
} from '@vend/protocol';
import { safeEqual } from '../../crypto/secrets.ts';
import { AppError } from '../../http/errors.ts';
import { parseInput } from '../../http/validate.ts';
import type { DeviceKeyVerifier } from '../device-credentials/key-verifier.ts';

/** The cabinet a gateway call comes from, resolved from its credential. */
export interface CabinetCaller {
  machineId: string;
  machineNo: string;
  operatorId: string | null;
  retired: boolean;
  via: 'device-key' | 'fleet-secret';
  keyId: string | null;
  generation: number | null;
  /** The box the presented credential was enrolled to (device-key calls). */
  credentialDeviceId: string | null;
  /** This call put the serial into the unclaimed pool. */
  provisioned: boolean;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      cabinet?: CabinetCaller;
    }
  }
}

/** A machine a fleet-secret call resolved to by its serial; `provisioned` when this call put it into the pool. */
export interface ResolvedSerial {
  id: string;
  machine_no: string;
  operator_id: string | null;
  retired_at: number | null;
  provisioned: boolean;
}

/** What the credential check needs of the gateway: the machine a serial names, and presence. */
export interface CabinetPresence {
  resolveSerial(serial: string, policy: Pick<LegPolicy, 'provision' | 'leg'>): Promise<ResolvedSerial>;
  touch(caller: CabinetCaller): Promise<void>;
}

/** What one gateway leg accepts. */
export interface LegPolicy {
  /** Names the leg in conflict and suspicion records: `cabinet.heartbeat`, `apk.getEquipment`. */
  leg: string;
  /** The fleet secret may stand in for a device key (bootstrap and selling legs, spec 2 §5). */
  fleetSecret: boolean;
  /** An unknown serial that passes the claim rule is provisioned into the unclaimed pool (first-contact legs). */
  provision?: 'agent' | 'apk';
  /** The enrolment leg itself: a fleet-secret call for an enrolled cabinet reaches the rules (409) instead of 401. */
  enrol?: boolean;
  /** `/cabinet/report` only: a retired machine's reports are still accepted. */
  allowRetired?: boolean;
  /** Body fields that may carry the serial. */
  bodySerialFields: readonly string[];
  /**
   * The leg's body and query schemas, judged once the credential is verified and before the serial is
   * resolved, provisioned or anything else is written: a refused first contact leaves no machine behind.
   */
  body?: z.ZodType;
  query?: z.ZodType;
}

const MAX_HEADER = 512;

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * Every place a call may name its serial (headers `equipmentNo` / `x-equipment-no`, query
 * `equipmentNo`, body fields), which must all agree. A non-string body field is a type error (422);
 * a serial over 128 characters or holding a control character or a lone surrogate is malformed (400)
 * and never reaches a lookup.
 */
function claimedSerial(req: Request, fields: readonly string[]): string | null {
  const seen: string[] = [];
  for (const h of EQUIPMENT_NO_HEADERS) {
    const v = header(req, h);
    if (v !== undefined) seen.push(v);
  }
  const q = (req.query as Record<string, unknown> | undefined)?.['equipmentNo'];
  if (typeof q === 'string' && q !== '') seen.push(q);
  else if (q !== undefined && typeof q !== 'string') throw new AppError('bad_request', 'equipmentNo must appear once in the query');
  const body: unknown = req.body;
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const f of fields) {
      const v = (body as Record<string, unknown>)[f];
      if (v === undefined || v === null || v === '') continue;
      if (typeof v !== 'string') throw new AppError('validation', `Validation error: body.${f}: expected a string`);
      seen.push(v);
    }
  }
  for (const s of seen) {
    if (s.length > SERIAL_FIELD_MAX || hasUnsafeChars(s)) {
      throw new AppError('bad_request', `equipmentNo must be at most ${SERIAL_FIELD_MAX} characters without control characters`);
    }
  }
  const first = seen[0];
  if (first === undefined) return null;
  if (seen.some((s) => s !== first)) throw new AppError('forbidden', 'equipmentNo values disagree');
  return first;
}

/** The leg's body and query as its schemas parsed them (undefined where the leg declares none). */
export interface LegInput {
  query: unknown;
  body: unknown;
}

/** Each query schema's verdict on an empty query, when it passes: frozen, so it is the same answer every time. */
const EMPTY_QUERY = new WeakMap<z.ZodType, unknown>();

/** A leg's query judged by its schema; an empty query (every pending poll) takes the schema's one verdict on it. */
function judgeQuery(schema: z.ZodType, query: unknown): unknown {
  const empty = query !== null && typeof query === 'object' && Object.keys(query).length === 0;
  if (!empty) return parseInput(schema, query, 'query');
  let parsed = EMPTY_QUERY.get(schema);
  if (parsed === undefined) {
    parsed = Object.freeze(parseInput(schema, query, 'query'));
    EMPTY_QUERY.set(schema, parsed);
  }
  return parsed;
}

/** The leg's own input, judged before anything reads the serial or writes (400 / 422 in the envelope). */
function judgeInput(req: Request, policy: LegPolicy): LegInput {
  return {
    query: policy.query ? judgeQuery(policy.query, req.query) : undefined,
    body: policy.body ? parseInput(policy.body, req.body === undefined ? {} : req.body, 'body') : undefined,
  };
}

/** A verified call: who calls, and the leg's input as judged. */
export interface CabinetCheck {
  caller: CabinetCaller;
  input: LegInput;
}

/**
 * Resolves the calling cabinet (spec 2 §4.1, §5), in this order:
 * 1. `x-device-key`, when present, is verified first and decides alone (rule 1): malformed, unknown,
 *    wrong secret or a retired generation 401; revoked 403. A rotation due is handed over in
 *    `x-device-credential`. Any serial the call names must be the credential's machine (rule 2: 403).
 * 2. Otherwise the leg must accept the fleet secret (else 401); none configured is 503; a wrong or
 *    missing `secret` header 401; then the serial names the machine (missing 400, unknown 404 — or
 *    provisioned on a first-contact leg, 400 when it breaks the claim rule); an enrolled cabinet is
 *    refused the fleet secret (401; the enrol leg answers 409 itself) and a revoked one is 403.
 * 3. On both paths, once the credential is judged and before anything is looked up by serial or
 *    written: every serial the call names must be well-formed (at most 128 characters, no control
 *    character or lone surrogate: 400) and the leg's body and query schemas must pass (400 / 422).
 *    So a refused first contact provisions nothing.
 * 4. A retired machine answers 410 on every leg but the report.
 * 5. The witness echo is judged (a stale one records a copy suspicion, never refuses) and this
 *    response's token is set; the machine is marked online (throttled).
 */
export function checkCabinet(
  creds: DeviceKeyVerifier,
  gateway: CabinetPresence,
  fleetSecret: string | undefined,
): (req: Request, res: Response, policy: LegPolicy) => Promise<CabinetCheck> {
  return async (req, res, policy) => {
    let caller: CabinetCaller;
    let input: LegInput;
    const key = header(req, DEVICE_KEY_HEADER);
    if (key !== undefined) {
      if (key.length > MAX_HEADER) throw new AppError('unauthorized', 'Invalid device key');
      const v = await creds.verifyKey(key);
      if (!v.ok) {
        if (v.reason === 'revoked') throw new AppError('forbidden', 'Credential revoked');
        throw new AppError('unauthorized', v.reason === 'retired' ? 'Device key generation retired' : 'Invalid device key');
      }
      if (v.rotated) res.setHeader(DEVICE_CREDENTIAL_HEADER, v.rotated);
      const claimed = claimedSerial(req, policy.bodySerialFields);
      const c = v.credential;
      caller = {
        machineId: c.machineId,
        machineNo: c.machineNo,
        operatorId: c.operatorId,
        retired: c.retired,
        via: 'device-key',
        keyId: c.keyId,
        generation: c.generation,
        credentialDeviceId: c.deviceId,
        provisioned: false,
      };
      if (claimed !== null && claimed !== c.machineNo) throw new AppError('forbidden', 'equipmentNo does not match the credential');
      input = judgeInput(req, policy);
      // The machine may have been retired since the key was cached: a cached "not retired" is at most one TTL old.
    } else {
      if (!policy.fleetSecret) throw new AppError('unauthorized', 'This leg needs the cabinet device key (x-device-key)');
      if (fleetSecret === undefined) throw new AppError('unavailable', 'Gateway disabled: no fleet secret is configured');
      const presented = header(req, FLEET_SECRET_HEADER);
      if (presented === undefined || presented.length > MAX_HEADER || !safeEqual(presented, fleetSecret)) {
        throw new AppError('unauthorized', 'Invalid bootstrap secret');
      }
      const claimed = claimedSerial(req, policy.bodySerialFields);
      input = judgeInput(req, policy);
      if (claimed === null) throw new AppError('bad_request', 'equipmentNo is required');
      const machine = await gateway.resolveSerial(claimed, policy);
      const state = await creds.credentialStateOf(machine.id);
      if (state === 'revoked') throw new AppError('forbidden', 'Credential revoked');
      if (state === 'enrolled' && !policy.enrol) throw new AppError('unauthorized', 'Cabinet is enrolled: the fleet secret is refused, present its device key');
      caller = {
        machineId: machine.id,
        machineNo: machine.machine_no,
        operatorId: machine.operator_id,
        retired: machine.retired_at !== null,
        via: 'fleet-secret',
        keyId: null,
        generation: null,
        credentialDeviceId: null,
        provisioned: machine.provisioned,
      };
    }
    if (caller.retired && !policy.allowRetired) throw new AppError('gone', 'Machine retired');
    const echo = header(req, DEVICE_WITNESS_HEADER);
    res.setHeader(DEVICE_WITNESS_HEADER, await creds.witness(caller.machineId, caller.keyId, echo, policy.leg));
    if (caller.via === 'fleet-secret') await creds.noteFleetSecretUse(caller.machineId);
    if (!caller.retired) await gateway.touch(caller);
    return { caller, input };
  };
}

/** The check as a route's guard: the caller is left on `req.cabinet` for the handler (`cabinetOf`). */
export function cabinetAuth(creds: DeviceKeyVerifier, gateway: CabinetPresence, fleetSecret: string | undefined, policy: LegPolicy): RequestHandler {
  const check = checkCabinet(creds, gateway, fleetSecret);
  return async (req, res, next) => {
    req.cabinet = (await check(req, res, policy)).caller;
    next();
  };
}

/**
 * `cabinetAuth` bound to its collaborators (built once, in the composition root): one leg's policy in, its
 * handler out; `check` is the same check called directly (the hot legs' lean dispatch, which uses the judged input).
 */
export interface CabinetGuard {
  (policy: LegPolicy): RequestHandler;
  check(req: Request, res: Response, policy: LegPolicy): Promise<CabinetCheck>;
}

export function cabinetGuard(creds: DeviceKeyVerifier, gateway: CabinetPresence, fleetSecret: string | undefined): CabinetGuard {
  return Object.assign((policy: LegPolicy) => cabinetAuth(creds, gateway, fleetSecret, policy), { check: checkCabinet(creds, gateway, fleetSecret) });
}

export function cabinetOf(req: Request): CabinetCaller {
  if (!req.cabinet) throw new AppError('unauthorized', 'Invalid device key');
  return req.cabinet;
}
