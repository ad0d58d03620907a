import { createHmac } from 'node:crypto';
import QRCode from 'qrcode';

/** A PNG QR code of `text`, `size` pixels square, with the standard quiet zone. */
export function qrPng(text: string, size: number): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', width: size, margin: 4, errorCorrectionLevel: 'M' });
}

/**
 * The stable `qrId` of a machine's advertise QR: the same machine always prints the same code, and
 * the id cannot be guessed from the serial without the deployment's key.
 */
export function advertiseQrId(machineNo: string, key: string): string {
  return `qr_${createHmac('sha256', key).update(`advertise-qr:${machineNo}`).digest('hex').slice(0, 16)}`;
}
