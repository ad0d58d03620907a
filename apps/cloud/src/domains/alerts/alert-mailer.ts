/** One alert e-mail. */
export interface AlertMail {
  to: string[];
  subject: string;
  text: string;
}

/**
 * How alerts reach people by e-mail: a port, so the alerts domain does not depend on an SMTP client. The
 * deployment's mail adapter implements it (wired in the composition root); until one is, mails are kept by
 * the recording mailer below.
 */
export interface AlertMailer {
  send(mail: AlertMail): Promise<void>;
}

/** Keeps every mail in memory: the tests read it, and it stands in where no mail adapter is configured. */
export class RecordingAlertMailer implements AlertMailer {
  readonly sent: AlertMail[] = [];
  send(mail: AlertMail): Promise<void> {
    this.sent.push(mail);
    return Promise.resolve();
  }
}
