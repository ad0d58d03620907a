import { SerialPortMock } from 'serialport';
import type { OpenOptions } from '@serialport/stream';
import type { SerialFront } from './front.ts';

/** serialport's binding interface (what `new SerialPortStream({ binding })` takes). */
export type SerialBinding = OpenOptions['binding'];
type PortBinding = Awaited<ReturnType<SerialBinding['open']>>;
/** serialport's mock binding (the `@serialport/binding-mock` package, typed through `serialport`). */
const MockBinding = SerialPortMock.binding;
type MockPortBinding = Awaited<ReturnType<typeof MockBinding.open>>;

class UnpluggedError extends Error {
  readonly disconnected = true;
  constructor(path: string) {
    super(`${path}: device unplugged`);
  }
}

/**
 * One open host-side port: serialport's MockPortBinding underneath, with its writes carried to the
 * board and its reads failing the moment the cable is pulled (the stream then closes with a
 * disconnect, as it does for a real USB adapter).
 */
class LinkedPort implements PortBinding {
  private unplugged: Promise<never>;
  private fail!: (e: Error) => void;
  constructor(
    readonly inner: MockPortBinding,
    private readonly toBoard: (bytes: Uint8Array) => void,
  ) {
    this.unplugged = new Promise<never>((_, reject) => (this.fail = reject));
    this.unplugged.catch(() => {});
  }
  get openOptions(): PortBinding['openOptions'] {
    return this.inner.openOptions;
  }
  get isOpen(): boolean {
    return this.inner.isOpen;
  }
  set isOpen(_v: boolean) {
    // the inner binding owns this
  }
  disconnect(path: string): void {
    this.fail(new UnpluggedError(path));
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
    return Promise.race([this.inner.read(buffer, offset, length), this.unplugged]);
  }
  async write(buffer: Buffer): Promise<void> {
    await Promise.race([this.inner.write(buffer), this.unplugged]);
    this.toBoard(Uint8Array.from(buffer));
  }
  update(options: Parameters<PortBinding['update']>[0]): Promise<void> {
    return this.inner.update(options);
  }
  set(options: Parameters<PortBinding['set']>[0]): Promise<void> {
    return this.inner.set(options);
  }
  get(): ReturnType<PortBinding['get']> {
    return this.inner.get();
  }
  getBaudRate(): Promise<{ baudRate: number }> {
    return this.inner.getBaudRate();
  }
  flush(): Promise<void> {
    return this.inner.flush();
  }
  drain(): Promise<void> {
    return this.inner.drain();
  }
}

let linkCount = 0;

/**
 * A serial cable made of serialport's mock binding: the agent opens `binding` at `path` with
 * serialport (as it would a real port) and the simulator uses `front`. Fast and deterministic: no
 * file descriptors, no processes.
 */
export class MockSerialLink implements SerialFront {
  readonly hostPath: string;
  readonly binding: SerialBinding;
  private onData: ((chunk: Uint8Array) => void) | null = null;
  private host: LinkedPort | null = null;
  private isPlugged = true;

  constructor(path = `/dev/ttyVMCMOCK${++linkCount}`) {
    this.hostPath = path;
    MockBinding.createPort(path, { echo: false, record: false });
    this.binding = {
      list: () => MockBinding.list(),
      open: async (options) => {
        if (!this.isPlugged) throw Object.assign(new Error(`Error: No such file or directory, cannot open ${options.path}`), { code: 'ENOENT' });
        const inner = await MockBinding.open(options);
        const port = new LinkedPort(inner, (bytes) => this.onData?.(bytes));
        this.host = port;
        return port;
      },
    };
  }

  get plugged(): boolean {
    return this.isPlugged;
  }

  async start(onData: (chunk: Uint8Array) => void): Promise<void> {
    this.onData = onData;
  }

  write(bytes: Uint8Array): void {
    const port = this.host;
    if (!this.isPlugged || !port || !port.isOpen) return;
    port.inner.emitData(Buffer.from(bytes));
  }

  async unplug(): Promise<void> {
    this.isPlugged = false;
    this.host?.disconnect(this.hostPath);
    this.host = null;
  }

  async replug(): Promise<void> {
    this.isPlugged = true;
  }

  async stop(): Promise<void> {
    await this.unplug();
    this.onData = null;
  }
}
