export * from './constants.ts';
export * from './crc16.ts';
export * from './frame.ts';
export * from './messages.ts';
export * from './decoder.ts';
export * from './aisle.ts';
export * from './outcomes.ts';
