import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One layer row of a step's table in docs/fifo.md. */
export interface DocLayer {
  po: string;
  sku: string;
  unitCostCents: number;
  received: number;
  remaining: number;
}

export type DocStep =
  | { kind: 'receive'; po: string; lines: { sku: string; qty: number; unitCostUsd: number }[]; layers: DocLayer[] }
  | { kind: 'sell'; sku: string; qty: number; costCents: number; layers: DocLayer[] };

const cents = (s: string) => Math.round(Number(s) * 100);

/** The hand-worked example of docs/fifo.md, parsed: each step and the layer table after it. */
export function fifoDocSteps(): DocStep[] {
  const doc = readFileSync(fileURLToPath(new URL('../../../../../docs/fifo.md', import.meta.url)), 'utf8');
  const sections = doc.split(/^### /m).slice(1);
  return sections.map((sec) => {
    const [heading = '', ...rest] = sec.split('\n');
    const layers = rest
      .filter((l) => /^\| PO-/.test(l))
      .map((l) => {
        const [po = '', sku = '', cost = '', received = '', remaining = ''] = l
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        return { po, sku, unitCostCents: cents(cost), received: Number(received), remaining: Number(remaining) };
      });
    const receive = /^Step \d+ — receive (\S+): (.+)$/.exec(heading);
    if (receive) {
      const lines = receive[2]!.split(', ').map((part) => {
        const m = /^(\S+) (\d+) @ ([\d.]+)$/.exec(part);
        if (!m) throw new Error(`bad line "${part}" in docs/fifo.md`);
        return { sku: m[1]!, qty: Number(m[2]), unitCostUsd: Number(m[3]) };
      });
      return { kind: 'receive', po: receive[1]!, lines, layers };
    }
    const sell = /^Step \d+ — sell (\d+) (\S+): cost ([\d.]+)$/.exec(heading);
    if (!sell) throw new Error(`bad step "${heading}" in docs/fifo.md`);
    return { kind: 'sell', qty: Number(sell[1]), sku: sell[2]!, costCents: cents(sell[3]!), layers };
  });
}
