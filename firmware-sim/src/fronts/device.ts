import { SerialPort } from 'serialport';
import { VMC_BAUD_RATE } from '@vend/protocol';
import type { FrontLog, SerialFront } from './front.ts';

/**
 * An existing serial device (a USB adapter wired to the agent's with a null-modem cable, or one end
 * of a pty pair someone else made). "Unplugging" closes it and keeps it closed: the far end sees
 * silence rather than a vanished device, which is all a real cable pull shows it.
 */
export class DeviceFront implements SerialFront {
  readonly hostPath = undefined;
  private port: SerialPort | null = null;
  private onData: ((chunk: Uint8Array) => void) | null = null;
  private isPlugged = false;

  constructor(
    readonly devicePath: string,
    private readonly log: FrontLog = () => {},
  ) {}

  get plugged(): boolean {
    return this.isPlugged;
  }

  async start(onData: (chunk: Uint8Array) => void): Promise<void> {
    this.onData = onData;
    await this.replug();
  }

  write(bytes: Uint8Array): void {
    if (!this.isPlugged || !this.port?.isOpen) return;
    this.port.write(Buffer.from(bytes), (err) => {
      if (err) this.log('device write failed', { error: err.message });
    });
  }

  async unplug(): Promise<void> {
    this.isPlugged = false;
    const port = this.port;
    this.port = null;
    if (port?.isOpen) await new Promise<void>((resolve) => port.close(() => resolve()));
  }

  async replug(): Promise<void> {
    if (this.isPlugged) return;
    this.port = await new Promise<SerialPort>((resolve, reject) => {
      const p = new SerialPort({ path: this.devicePath, baudRate: VMC_BAUD_RATE, dataBits: 8, parity: 'none', stopBits: 1 }, (err) =>
        err ? reject(err) : resolve(p),
      );
    });
    this.port.on('data', (chunk: Buffer) => this.onData?.(Uint8Array.from(chunk)));
    this.port.on('close', () => {
      if (this.isPlugged) this.log('device closed', { path: this.devicePath });
      this.isPlugged = false;
    });
    this.isPlugged = true;
  }

  async stop(): Promise<void> {
    await this.unplug();
    this.onData = null;
  }
}
