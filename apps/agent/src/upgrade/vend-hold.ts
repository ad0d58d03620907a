import type { VendLock } from '../vmc/vend-lock.ts';

/**
 * Takes `lock` for the upgrade pipeline if it is free, in this very turn (UpgradeHost.holdVendLock):
 * `VendLock.run` marks a free lock held synchronously, so no walk-up or remote drop can slip in between
 * the caller's quiet check and this. The lock stays held until `release()` (an install that does not go
 * ahead) or until the process exits (an install that does). Null when the lock is busy.
 */
export function holdVendLock(lock: VendLock): { release(): void } | null {
  if (!lock.isFree) return null;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  void lock.run(() => gate);
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      open();
    },
  };
}
