/**
 * The board's end of the serial cable. The simulator does not care whether it is a pseudo-terminal,
 * a real device or serialport's mock binding.
 */
export interface SerialFront {
  /** What the agent opens (a pty link, a mock-binding path); undefined for a real device. */
  readonly hostPath: string | undefined;
  readonly plugged: boolean;
  /** Connects and starts delivering received bytes to `onData`. */
  start(onData: (chunk: Uint8Array) => void): Promise<void>;
  /** Sends bytes; silently lost while unplugged. */
  write(bytes: Uint8Array): void;
  /** The device disappears (the agent sees its port close and cannot reopen it). */
  unplug(): Promise<void>;
  /** The device comes back at the same path. */
  replug(): Promise<void>;
  stop(): Promise<void>;
}

export interface FrontLog {
  (event: string, fields?: Record<string, unknown>): void;
}
