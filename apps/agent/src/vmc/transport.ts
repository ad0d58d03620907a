import { SerialPort } from 'serialport';
import { SerialPortStream } from '@serialport/stream';
import type { OpenOptions } from '@serialport/stream';
import { VMC_BAUD_RATE } from '@vend/protocol';

/** serialport's binding interface: the real one by default, the mock binding in tests. */
export type SerialBinding = OpenOptions['binding'];

export interface SerialEvents {
  data(chunk: Uint8Array): void;
  /** The port closed: `error` set when it vanished (unplugged) rather than being closed by us. */
  closed(error: Error | null): void;
}

/** One open port. */
export interface SerialConnection {
  /** Resolves once the bytes are handed to the OS; rejects if the port is gone. */
  write(bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface PortListing {
  path: string;
  manufacturer?: string | undefined;
  serialNumber?: string | undefined;
}

/**
 * The driver's only view of the serial port: small on purpose, so tests swap the binding (or the
 * whole thing) without touching the driver.
 */
export interface SerialTransport {
  /** Opens `path` at 9600 8N1, discarding anything already waiting in its input buffer. */
  open(path: string, events: SerialEvents): Promise<SerialConnection>;
  /** Ports the OS knows of. May reject (on Linux it needs udevadm); callers must cope. */
  list(): Promise<PortListing[]>;
}

/** A SerialTransport over serialport: the auto-detected OS binding unless another is given. */
export function serialportTransport(opts: { binding?: SerialBinding } = {}): SerialTransport {
  const binding: SerialBinding = opts.binding ?? (SerialPort.binding as SerialBinding);
  return {
    async open(path, events) {
      const port = new SerialPortStream({ binding, path, baudRate: VMC_BAUD_RATE, dataBits: 8, parity: 'none', stopBits: 1, autoOpen: false });
      await new Promise<void>((resolve, reject) => port.open((err) => (err ? reject(err) : resolve())));
      await new Promise<void>((resolve) => port.flush(() => resolve()));
      let closed = false;
      port.on('data', (chunk: Buffer) => events.data(Uint8Array.from(chunk)));
      port.on('error', () => {
        // a failed write also rejects its promise; a dead port also emits 'close'
      });
      port.on('close', (err: Error | null | undefined) => {
        if (closed) return;
        closed = true;
        events.closed(err ?? null);
      });
      return {
        write: (bytes) =>
          new Promise<void>((resolve, reject) => {
            if (!port.isOpen) return reject(new Error(`${path} is not open`));
            port.write(Buffer.from(bytes), (err) => {
              if (err) return reject(err);
              port.drain((e) => (e ? reject(e) : resolve()));
            });
          }),
        close: () =>
          new Promise<void>((resolve) => {
            if (!port.isOpen) return resolve();
            port.close(() => resolve());
          }),
      };
    },
    async list() {
      const ports = await binding.list();
      return ports.map((p) => ({ path: p.path, manufacturer: p.manufacturer, serialNumber: p.serialNumber }));
    },
  };
}
