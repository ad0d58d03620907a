import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { AxeResults, ContextObject, Result } from 'axe-core';

/**
 * axe-core in the reference page, for the browser test. The page's policy allows only its own scripts, so
 * axe goes in as an evaluated expression (the DevTools protocol, which the policy does not govern) rather
 * than a script tag.
 */

export type AxeViolation = Pick<Result, 'id' | 'impact' | 'help' | 'nodes'>;

/** The page's own parts: the header with the sandbox note (or, in production, the links). */
export const OWN_PARTS: ContextObject = { include: [['header']] };

/** The whole page, the bundled UI with it. */
export const WHOLE_PAGE: ContextObject = { include: [['body']] };

/**
 * Serious faults of the bundled Swagger UI that the page leaves as they are (docs/decisions/contract.md,
 * "The reference page"): its palette (white on its method colours, its green "Authorize", its blue links)
 * and code blocks that scroll without taking focus.
 */
export const BUNDLED_SERIOUS: readonly string[] = ['color-contrast', 'scrollable-region-focusable'];

let source: string | undefined;

/** axe-core's browser build, as the text of an expression that defines `window.axe`. */
export function axeSource(): string {
  return (source ??= (createRequire(import.meta.url)('axe-core') as { source: string }).source);
}

/** Runs axe (already evaluated in the page) on `include`; its violations. */
export async function runAxe(page: Page, context: ContextObject): Promise<AxeViolation[]> {
  const results = (await page.evaluate(`window.axe.run(${JSON.stringify(context)}, { resultTypes: ['violations'] })`)) as AxeResults;
  return results.violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes }));
}

/** One line a violation: for an assertion's message. */
export function listViolations(vs: readonly AxeViolation[]): string {
  return vs.map((v) => `${v.impact} ${v.id} ×${v.nodes.length} (${v.help}): ${v.nodes[0]?.target.join(' ')}`).join('\n');
}
