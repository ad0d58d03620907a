import type { KioskServiceAnswer } from '@vend/protocol';
import { h } from './dom.ts';

/**
 * Service mode: a keypad for the service code (checked by the cabinet's gate, whose lockout applies),
 * then the cabinet's status for the technician. Opened by five taps in the top-left corner within four
 * seconds, or Ctrl+Shift+S on a keyboard.
 */
export function renderService(check: (code: string) => Promise<KioskServiceAnswer>, onClose: () => void): HTMLElement {
  const input = h('input', { id: 'service-code', type: 'password', inputmode: 'numeric', autocomplete: 'off', maxlength: 12, class: 'code' });
  const message = h('p', { class: 'service-message', role: 'status', 'aria-live': 'polite' });
  const body = h('div', { class: 'service-body' });
  const keypad = h(
    'div',
    { class: 'keypad', role: 'group', 'aria-label': 'Keypad' },
    ...['1', '2', '3', '4', '5', '6', '7', '8', '9', '⌫', '0', 'OK'].map((k) => {
      const b = h('button', { type: 'button', class: k === 'OK' ? 'key ok' : 'key', 'aria-label': k === '⌫' ? 'Delete' : k }, k);
      b.addEventListener('click', () => {
        if (k === '⌫') input.value = input.value.slice(0, -1);
        else if (k === 'OK') void submit();
        else if (input.value.length < 12) input.value += k;
      });
      return b;
    }),
  );
  const form = h('form', { class: 'service-form' }, h('label', { for: 'service-code' }, 'Service code'), input, keypad);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit();
  });
  const close = h('button', { type: 'button', class: 'secondary' }, 'Close');
  close.addEventListener('click', onClose);

  async function submit(): Promise<void> {
    const code = input.value;
    input.value = '';
    try {
      const answer = await check(code);
      message.textContent = answer.check.message;
      if (answer.status) {
        form.remove();
        body.append(statusTable(answer.status));
      }
    } catch (e) {
      message.textContent = (e as Error).message;
    }
  }

  body.append(form);
  return h('section', { class: 'view service', 'aria-labelledby': 'service-title' }, h('h1', { id: 'service-title' }, 'Service mode'), message, body, close);
}

function statusTable(s: NonNullable<KioskServiceAnswer['status']>): HTMLElement {
  const rows: [string, string][] = [
    ['Cabinet', s.agent.equipmentNo],
    ['Enrolment', s.enrolment.state],
    ['Agent version', s.agent.version],
    ['Cloud', s.cloud.reachable ? `reachable (last answer ${s.cloud.lastAnswerAt ?? '—'})` : `unreachable since ${s.cloud.lastAnswerAt ?? 'start'}`],
    ['Board', `${s.board.state}${s.board.problems.length ? `: ${s.board.problems.join(', ')}` : ''}`],
    ['Board firmware', s.board.vmcVersion ?? '—'],
    ['Reports waiting', String(s.spool.depth)],
    ['Last errors', s.lastErrors.length ? s.lastErrors.map((e) => `${e.source}: ${e.message}`).join(' · ') : 'none'],
  ];
  return h('dl', { class: 'status' }, ...rows.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
}
