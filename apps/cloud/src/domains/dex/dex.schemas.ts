import { z } from 'zod';
import { Day } from '../finance/finance.schemas.ts';
import { MachineNoParams } from '../machines/machines.schemas.ts';

export const DexParams = MachineNoParams;
export const DexQuery = z.object({
  from: Day.optional().describe('first day of the period, inclusive (UTC); default: to, or today'),
  to: Day.optional().describe('last day of the period, inclusive (UTC); default: from, or today'),
});
