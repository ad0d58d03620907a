import type { MailSender } from '../../mail/mail-sender.ts';

/** One alert e-mail. */
export interface AlertMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * How alerts reach people by e-mail: a port, so the alerts domain does not depend on an SMTP client; the
 * composition root wires it to the cloud's mail sender (`MailSenderAlertMailer`).
 */
export interface AlertMailer {
  send(mail: AlertMail): Promise<void>;
}

/** Keeps every mail in memory (the tests read it). */
export class RecordingAlertMailer implements AlertMailer {
  readonly sent: AlertMail[] = [];
  send(mail: AlertMail): Promise<void> {
    this.sent.push(mail);
    return Promise.resolve();
  }
}

/** Alert e-mails through the cloud's one mail sender (SMTP when configured, else its recording outbox): one message per recipient. */
export class MailSenderAlertMailer implements AlertMailer {
  constructor(private readonly mail: Pick<MailSender, 'send'>) {}

  async send(mail: AlertMail): Promise<void> {
    for (const to of mail.to) await this.mail.send({ to, subject: mail.subject, text: mail.text });
  }
}
