import { el } from './dom.ts';

/** An image to show at its full size. */
export interface FullSizeImage {
  url: string;
  alt: string;
  width: number;
  height: number;
  /** The dialog's heading. */
  title: string;
}

/**
 * A creative at full size, in its own modal `<dialog>` over the page (or over the confirmation it was opened from): the
 * image as large as the viewport allows, its aspect ratio kept; the Close button takes focus, Escape closes it, and
 * focus returns to the button that opened it. A link opens the file itself in a new tab (pixel for pixel).
 */
export class CreativeViewer {
  readonly dialog = el('dialog', { class: 'dialog viewer', 'aria-labelledby': 'vw-h' });

  open(image: FullSizeImage): void {
    const from = document.activeElement as HTMLElement | null;
    const close = el('button', { type: 'button', class: 'cancel' }, 'Close');
    close.addEventListener('click', () => this.dialog.close());
    this.dialog.replaceChildren(
      el('div', { class: 'viewer-head' }, el('h2', { id: 'vw-h' }, image.title), close),
      el('img', { src: image.url, alt: image.alt, width: image.width, height: image.height }),
      el('p', {}, el('a', { href: image.url, target: '_blank', rel: 'noopener' }, `Open the file in a new tab (${image.width}×${image.height})`)),
    );
    this.dialog.onclose = () => from?.isConnected && from.focus();
    this.dialog.showModal();
    close.focus();
  }
}
