import { describe, expect, it } from 'vitest';
import { RecordingMailSender } from '../../mail/mail-sender.ts';
import { MailSenderAlertMailer } from './alert-mailer.ts';

describe('alert e-mail through the cloud mail sender', () => {
  it('sends one message per recipient with the alert’s subject and text', async () => {
    const outbox = new RecordingMailSender();
    await new MailSenderAlertMailer(outbox).send({ to: ['a@example.test', 'b@example.test'], subject: '[Down] machine.offline opened on M1', text: 'details' });
    expect(outbox.sent.map((m) => [m.to, m.subject, m.text])).toEqual([
      ['a@example.test', '[Down] machine.offline opened on M1', 'details'],
      ['b@example.test', '[Down] machine.offline opened on M1', 'details'],
    ]);
  });
});
