export { VmcDriver, VmcLinkError, DEFAULT_VMC_TIMINGS, silentLogger } from './driver.ts';
export type { VmcTimings, VmcDriverOptions, DriverLogger, DriverStats, LaneScan, VmcLinkErrorCode, DispenseBinding, DispenseResolution } from './driver.ts';
export { serialportTransport } from './transport.ts';
export type { SerialTransport, SerialConnection, SerialEvents, SerialBinding, PortListing } from './transport.ts';
export { VendLock } from './vend-lock.ts';
export { outcomeOfResult, outcomeOfFailure, motorRanOf } from './outcomes.ts';
export type { DispenseReport, LinkFailure } from './outcomes.ts';
export { runSelfCheck, formatSelfCheck } from './self-check.ts';
export type { SelfCheckReport } from './self-check.ts';
