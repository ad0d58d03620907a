/**
 * VMC serial link, protocol version 1: the constants a board vendor would print in the protocol
 * document (docs/vmc-protocol.md). Everything here is shared by the agent and the simulator.
 */

/** Physical layer: 9600 baud, 8 data bits, no parity, 1 stop bit (spec 2 §8). */
export const VMC_BAUD_RATE = 9600;
/** Bits on the wire per byte at 8N1: start + 8 data + stop. */
export const VMC_BITS_PER_BYTE = 10;

/** Protocol version reported in the board-info reply. */
export const VMC_PROTOCOL_VERSION = 1;

/** Every frame, in both directions, is exactly this many bytes. */
export const VMC_FRAME_LENGTH = 16;
/** Offsets of the fields inside a frame. */
export const VMC_OFFSET = { start: 0, seq: 1, command: 2, data: 3, crc: 13 } as const;
/** Bytes of command arguments / reply data in every frame (zero-padded). */
export const VMC_DATA_LENGTH = 10;
/** Bytes that carry the CRC (16 bits spread over three 7-bit bytes: 2 + 7 + 7). */
export const VMC_CRC_LENGTH = 3;

/**
 * Start bytes. They are the only bytes on the line with bit 7 set: every other byte of a frame is
 * 0x00–0x7F. A receiver therefore knows a frame begins the moment it sees a start byte, whatever
 * came before it, and a frame cut short is detected as soon as the next one starts.
 */
export const VMC_START_HOST = 0xaa; // host (agent) -> board
export const VMC_START_BOARD = 0xbb; // board -> host

/** Sequence numbers run 1..127 and wrap to 1; 0 marks an unsequenced query (never stored, never a retransmission). */
export const VMC_SEQ_MIN = 1;
export const VMC_SEQ_MAX = 127;

/** Largest value of a 14-bit field (two 7-bit bytes, most significant first). */
export const VMC_U14_MAX = 0x3fff;

/** Lanes described by one lane-scan reply page. */
export const VMC_LANES_PER_PAGE = 21;

/** Machine geometry the protocol can describe (spec 2 §2.4 defaults: 6 rows × 10 columns). */
export const VMC_MAX_ROWS = 32;
export const VMC_MAX_COLUMNS = 32;

/** Timing, spec 2 §8. */
export const VMC_ACK_TIMEOUT_MS = 500;
export const VMC_RESULT_TIMEOUT_MS = 30_000;
export const VMC_OPEN_ATTEMPTS = 10;
export const VMC_OPEN_BACKOFF_MS = 2_000;

/** Host commands (byte 2 of a host frame). */
export const VmcCommand = {
  info: 0x01,
  status: 0x02,
  dispense: 0x03,
  laneScan: 0x04,
  dropSensor: 0x05,
} as const;
export type VmcCommandName = keyof typeof VmcCommand;

/** Board frame types (byte 2 of a board frame). A query's reply is its acknowledgement: command | 0x40. */
export const VmcReply = {
  info: 0x41,
  status: 0x42,
  dispenseAck: 0x43,
  laneScan: 0x44,
  dropSensor: 0x45,
  result: 0x52,
  nak: 0x15,
} as const;
export type VmcReplyName = keyof typeof VmcReply;

/** Dispense result codes carried by the RESULT frame. */
export const VmcResultCode = {
  success: 0x00,
  laneEmpty: 0x01,
  motorJam: 0x02,
  dropNotDetected: 0x03,
  liftFault: 0x04,
  unknownAisle: 0x05,
  busy: 0x06,
  noMotor: 0x07,
} as const;
export type VmcResultName = keyof typeof VmcResultCode;

/** Reasons carried by a NAK (sent only for well-formed frames the board refuses). */
export const VmcNakReason = {
  unknownCommand: 0x01,
  badArgument: 0x02,
  sequenceConflict: 0x03,
  sequenceZero: 0x04,
  bootMismatch: 0x05,
} as const;
export type VmcNakReasonName = keyof typeof VmcNakReason;

/** Board state in the status reply. */
export const VmcBoardState = {
  idle: 0x00,
  dispensing: 0x01,
  busy: 0x02,
  fault: 0x03,
} as const;
export type VmcBoardStateName = keyof typeof VmcBoardState;

/** Machine modules (spec 2 §2.4): spring lanes only, or spring lanes served by a Y-axis lift. */
export const VmcModuleCode = { SH: 0x00, SH_YAxis: 0x01 } as const;
export type VmcModule = keyof typeof VmcModuleCode;
export const VMC_MODULES = ['SH_YAxis', 'SH'] as const satisfies readonly VmcModule[];

/** Seconds on the wire for `bytes` bytes at 9600 8N1, in milliseconds. */
export function vmcWireTimeMs(bytes: number, baudRate: number = VMC_BAUD_RATE): number {
  return (bytes * VMC_BITS_PER_BYTE * 1000) / baudRate;
}

/** The sequence number after `seq` (1..127, wrapping to 1; 0 is never produced). */
export function nextVmcSeq(seq: number): number {
  return seq >= VMC_SEQ_MAX || seq < VMC_SEQ_MIN ? VMC_SEQ_MIN : seq + 1;
}

/** Reverse lookup: the name of a code in one of the tables above, or undefined. */
export function nameOfCode<T extends Record<string, number>>(table: T, code: number): keyof T | undefined {
  for (const [name, value] of Object.entries(table)) if (value === code) return name as keyof T;
  return undefined;
}
