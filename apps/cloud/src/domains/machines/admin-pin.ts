import { createHmac } from 'node:crypto';

/**
 * The default kiosk admin PIN of a cabinet: six digits derived from the deployment's data key and
 * the serial, so it is stable, differs per cabinet and is never stored. An operator-set PIN wins.
 */
export function derivedAdminPin(dataKey: string, machineNo: string): string {
  const mac = createHmac('sha256', `vend-admin-pin:${dataKey}`).update(machineNo).digest();
  return String(mac.readUInt32BE(0) % 1_000_000).padStart(6, '0');
}
