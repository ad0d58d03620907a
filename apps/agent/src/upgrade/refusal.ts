import type { RefusalCode } from './preflight.ts';

/** An offer refused after pre-flight (steps 8–10: disk room, download, archive, tree, swap); the manager answers it as `refused`. */
export class Refusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
  }
}
