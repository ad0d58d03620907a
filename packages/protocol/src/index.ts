export * from './clock.ts';
export * from './serial-number.ts';
export * from './text.ts';
export * from './version.ts';
export * from './vmc/index.ts';
export * from './gateway.ts';
export * from './release.ts';
export * from './release-admin.ts';
