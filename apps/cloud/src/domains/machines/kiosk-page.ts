import { Router } from 'express';
import { isClaimableSerial } from '@vend/protocol';
import { html, layout, sendPage, type SafeHtml } from '../../http/html.ts';
import { DEFAULT_KIOSK_UI_URL } from './config-block.ts';

/** The reference page's link to one operation (`/docs#/<tag>/<operationId>`). */
const docsLink = (operationId: string) => `/docs#/machines/${operationId}`;

/**
 * What `/kiosk/<serial>` says: the address configuration blocks used to default to (issue 32). The screen is
 * served by the cabinet's own agent, so this page only tells whoever opens it where the screen is and where
 * an operator sees the machine. It names nothing stored: no lookup, so it tells a prober nothing about
 * which serials exist, and it holds no secret.
 */
export function kioskPage(serial: string): SafeHtml {
  return layout({
    title: `Cabinet ${serial}: its screen runs on the cabinet`,
    body: html`<h1>Cabinet ${serial}: its screen runs on the cabinet</h1>
      <div class="notice">
        <p>
          This cabinet's screen (attract loop, storefront, pay by phone) is served by the cabinet's own agent at
          <code>${DEFAULT_KIOSK_UI_URL}</code>. Only the cabinet's own browser can open that address, and it keeps working when the cabinet cannot reach the
          cloud. There is nothing to see here.
        </p>
      </div>
      <h2>Setting up the cabinet</h2>
      <p>
        Open <code>${DEFAULT_KIOSK_UI_URL}</code> in the cabinet's kiosk browser. It is the default <code>kioskUiUrl</code> of the cabinet's configuration
        block; an operator may set another address for one machine with <code>PUT /api/v1/machines/${serial}/cabinet-settings</code>. On the cabinet,
        <code>vend-agent status</code> shows the agent's state and its attract loop.
      </p>
      <h2>Operators</h2>
      <p>Machine <code>${serial}</code> is seen through the operator API, with your API key:</p>
      <ul>
        <li>
          <a href="${docsLink('getMachinesByMachineNo')}"><code>GET /api/v1/machines/${serial}</code></a
          >: the machine, its status and when it was last seen;
        </li>
        <li>
          <a href="${docsLink('getMachinesByMachineNoOperatorView')}"><code>GET /api/v1/machines/${serial}/operator-view</code></a
          >: its status, sales, stock and screen-ad money at a glance;
        </li>
        <li><code>GET /api/v1/inventory/machines/${serial}</code>: its aisles, prices and pictures.</li>
      </ul>
      <p><a href="/docs">The API reference</a> lists every operation.</p>`,
  });
}

const notACabinetPage = () =>
  layout({
    title: 'No cabinet has this address',
    body: html`<h1>No cabinet has this address</h1>
      <p>
        A cabinet's serial is 8 to 32 letters, digits and hyphens. Every cabinet's screen runs on the cabinet itself, at
        <code>${DEFAULT_KIOSK_UI_URL}</code>.
      </p>
      <p><a href="/docs">The API reference</a></p>`,
  });

/** `GET /kiosk/:serial`: a page, no key (mounted with the other pages, before the API's JSON parser and 404). */
export function kioskPageRoutes(): Router {
  const r = Router();
  r.get('/kiosk/:serial', (req, res) => {
    const serial = req.params.serial;
    if (isClaimableSerial(serial)) sendPage(res, 200, kioskPage(serial));
    else sendPage(res, 404, notACabinetPage());
  });
  return r;
}
