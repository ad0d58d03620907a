/** The claimable-serial rule shared by the operator API and the cabinet gateway: letters, digits, hyphens; 8–32 characters. */
export const SERIAL_MIN = 8;
export const SERIAL_MAX = 32;

/** Every fault of a serial, in a stable order; empty when the serial is claimable. */
export function serialFaults(serial: string): string[] {
  const faults: string[] = [];
  if (!/^[A-Za-z0-9-]*$/.test(serial)) faults.push('letters, digits, hyphens only');
  if (serial.length < SERIAL_MIN || serial.length > SERIAL_MAX) faults.push(`${SERIAL_MIN}–${SERIAL_MAX} characters`);
  return faults;
}

export function isClaimableSerial(serial: string): boolean {
  return serialFaults(serial).length === 0;
}

/** One human sentence naming every fault, for a 400 message. */
export function describeSerialFaults(serial: string): string | null {
  const faults = serialFaults(serial);
  if (faults.length === 0) return null;
  return `machineNo must be ${faults.join(' and ')} (got ${serial.length} characters)`;
}
