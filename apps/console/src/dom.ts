/** Attributes of an element built by `el`: a false, null or undefined value leaves the attribute out. */
type Attrs = Record<string, string | number | boolean | null | undefined>;
type Child = Node | string | null | undefined | false;

/** Builds an element; children that are strings become text nodes, never markup. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

/** Builds an SVG element (the sales chart). */
export function svg(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  setAttrs(node, attrs);
  for (const c of children) if (c !== null && c !== undefined && c !== false) node.append(c);
  return node;
}

function setAttrs(node: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    node.setAttribute(k === 'className' ? 'class' : k, v === true ? '' : String(v));
  }
}

/** A decimal amount the API answered, in its currency (USD when the API names none). */
export function money(amount: number, currency: string | null): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency ?? 'USD' }).format(amount);
}

/** A timestamp the API answered (`YYYY-MM-DDTHH:MM:SS.mmm+0000`) in the reader's own words and zone. */
export function when(stamp: string | null): string {
  if (stamp === null) return 'never';
  const t = Date.parse(stamp.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(t) ? stamp : new Date(t).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
}

/** Moves focus to the view's first heading, so a keyboard or screen-reader user starts in the new view. */
export function focusHeading(root: HTMLElement): void {
  const heading = root.querySelector<HTMLElement>('h1');
  if (!heading) return;
  heading.tabIndex = -1;
  heading.focus();
}

/** Says `text` through the page's polite live region. */
export function announce(text: string): void {
  const live = document.getElementById('live');
  if (!live) return;
  live.textContent = '';
  // a fresh text node on the next frame, so a repeated message is read again
  requestAnimationFrame(() => (live.textContent = text));
}
