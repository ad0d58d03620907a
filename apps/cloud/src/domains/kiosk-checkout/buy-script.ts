import { createHash } from 'node:crypto';

/**
 * The phone page's one script (served from this service, so the page's policy allows `script-src 'self'` and
 * nothing else): while the checkout is not final it counts the time left down each second and reads the page again
 * every 3 s; when the checkout's state changed it swaps in the new content and moves focus to its heading (a screen
 * reader announces it). No inline code, no eval, nothing from outside; without it the page's Refresh link does the same.
 */
export const BUY_SCRIPT = `(function () {
  'use strict';
  var POLL_MS = 3000;
  var shownAt = Date.now();
  function box() { return document.getElementById('checkout'); }
  function format(s) { var m = Math.floor(s / 60); return (m > 0 ? m + ' min ' : '') + (s % 60) + ' s'; }
  function tick() {
    var t = document.getElementById('time-left');
    if (!t) return;
    var left = Math.max(0, Number(t.getAttribute('data-seconds')) - Math.floor((Date.now() - shownAt) / 1000));
    t.textContent = format(left);
  }
  function poll() {
    var current = box();
    if (!current || current.getAttribute('data-final') === 'true') return;
    fetch(window.location.href, { cache: 'no-store', credentials: 'same-origin' })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text) return;
        var next = new DOMParser().parseFromString(text, 'text/html').getElementById('checkout');
        var now = box();
        if (!next || !now) return;
        shownAt = Date.now();
        if (next.getAttribute('data-state') !== now.getAttribute('data-state')) {
          now.replaceWith(document.importNode(next, true));
          var h = document.getElementById('checkout-heading');
          if (h) h.focus();
          document.title = h ? h.textContent : document.title;
        } else {
          var t = document.getElementById('time-left');
          var n = next.querySelector('#time-left');
          if (t && n) t.setAttribute('data-seconds', n.getAttribute('data-seconds'));
          tick();
        }
      })
      .catch(function () {})
      .then(function () { window.setTimeout(poll, POLL_MS); });
  }
  window.setInterval(tick, 1000);
  window.setTimeout(poll, POLL_MS);
})();
`;

/** The script's address: its content hash is in the name, so it may be cached for a year. */
export const BUY_SCRIPT_PATH = `/assets/buy.${createHash('sha256').update(BUY_SCRIPT).digest('hex').slice(0, 12)}.js`;
