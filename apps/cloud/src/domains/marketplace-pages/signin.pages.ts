import { html, layout, type SafeHtml } from '../../http/html.ts';
import { csrfInput, errorSummary, field, type FieldErrors } from './form-ui.ts';

/**
 * The operator's sign-in pages: email and password, then the authenticator code (or its first set-up).
 * `base` is the address the flow is served at: `/signin` (every operator page) or `/advertise/signin`.
 */
export type SignInBase = '/signin' | '/advertise/signin';

const nextInput = (next: string) => html`<input type="hidden" name="next" value="${next}" />`;

export function signInPage(o: { base: SignInBase; csrf: string; next: string; email?: string; errors?: FieldErrors; notice?: string }): SafeHtml {
  const errors = o.errors ?? {};
  return layout({
    title: `${Object.keys(errors).length ? 'Error: ' : ''}Operator sign-in`,
    body: html`<h1>Operator sign-in</h1>
      <p>
        ${o.base === '/signin' ? 'Sign in to your fleet: the console and the hosted operator view.' : 'Sign in to review the advertising bought on your machines.'}
      </p>
      ${o.notice ? html`<div class="notice"><p>${o.notice}</p></div>` : ''} ${errorSummary(errors)}
      <form method="post" action="${o.base}" novalidate>
        ${csrfInput(o.csrf)}${nextInput(o.next)}
        ${field({ name: 'email', label: 'Email address', type: 'email', value: o.email, error: errors['email'], autocomplete: 'username', required: true })}
        ${field({ name: 'password', label: 'Password', type: 'password', error: errors['password'], autocomplete: 'current-password', required: true })}
        <div class="actions"><button type="submit">Continue</button></div>
      </form>`,
  });
}

export function codePage(o: { base: SignInBase; csrf: string; next: string; errors?: FieldErrors; email?: string }): SafeHtml {
  const errors = o.errors ?? {};
  return layout({
    title: `${Object.keys(errors).length ? 'Error: ' : ''}Enter your verification code`,
    body: html`<h1>Enter your verification code</h1>
      ${o.email ? html`<p class="muted">Signing in as ${o.email}.</p>` : ''} ${errorSummary(errors)}
      <form method="post" action="${o.base}/code" novalidate>
        ${csrfInput(o.csrf)}${nextInput(o.next)}
        ${field({ name: 'code', label: 'Code from your authenticator app', hint: 'Six digits; a new one every 30 seconds.', error: errors['code'], autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 6, required: true })}
        <div class="actions"><button type="submit">Sign in</button></div>
      </form>
      <h2>Lost your authenticator?</h2>
      <form method="post" action="${o.base}/recovery" novalidate>
        ${csrfInput(o.csrf)}${nextInput(o.next)}
        ${field({ name: 'recoveryCode', label: 'One of your recovery codes', error: errors['recoveryCode'], autocomplete: 'off' })}
        <div class="actions"><button type="submit" class="secondary">Sign in with a recovery code</button></div>
      </form>
      <p><a href="${o.base}">Start again</a></p>`,
  });
}

export function enrolPage(o: {
  base: SignInBase;
  csrf: string;
  next: string;
  secret: string;
  otpauthUrl: string;
  qrDataUrl: string;
  errors?: FieldErrors;
}): SafeHtml {
  const errors = o.errors ?? {};
  return layout({
    title: `${Object.keys(errors).length ? 'Error: ' : ''}Set up two-step sign-in`,
    body: html`<h1>Set up two-step sign-in</h1>
      <p>Your account needs an authenticator app before it can sign in. Scan this code with the app (or type the key), then enter the code it shows.</p>
      ${errorSummary(errors)} ${o.qrDataUrl ? html`<p><img class="qr" src="${o.qrDataUrl}" alt="QR code of your authenticator key" /></p>` : ''}
      <dl class="facts">
        <dt>Key</dt>
        <dd><code>${o.secret}</code></dd>
      </dl>
      <form method="post" action="${o.base}/enrol" novalidate>
        ${csrfInput(o.csrf)}${nextInput(o.next)}
        <input type="hidden" name="secret" value="${o.secret}" /><input type="hidden" name="otpauthUrl" value="${o.otpauthUrl}" />
        ${field({ name: 'code', label: 'Code from your authenticator app', error: errors['code'], autocomplete: 'one-time-code', inputmode: 'numeric', maxlength: 6, required: true })}
        <div class="actions"><button type="submit">Turn on and sign in</button></div>
      </form>`,
  });
}

export function recoveryCodesPage(o: { next: string; codes: string[] }): SafeHtml {
  return layout({
    title: 'Your recovery codes',
    body: html`<h1>Two-step sign-in is on</h1>
      <div class="notice warn">
        <p>Keep these recovery codes somewhere safe: each signs you in once if you lose your authenticator. They are shown only now.</p>
      </div>
      <ul class="codes">
        ${o.codes.map((c) => html`<li>${c}</li>`)}
      </ul>
      <p><a class="button" href="${o.next}">Continue</a></p>`,
  });
}

/** The header of signed-in pages: who is signed in and the sign-out form. */
export function signedInHeader(o: { email: string; admin: boolean; csrf: string }): SafeHtml {
  return html`<span>Signed in as <b>${o.email}</b>${o.admin ? ' (admin)' : ''}</span>
    <form method="post" action="/advertise/signout">${csrfInput(o.csrf)}<button type="submit">Sign out</button></form>`;
}
