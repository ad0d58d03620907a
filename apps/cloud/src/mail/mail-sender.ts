import { createTransport, type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';

/** One outgoing e-mail, plain text (what is previewed is what is sent). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers (List-Unsubscribe, …). */
  headers?: Record<string, string>;
}

/** The one way the cloud sends e-mail (DFY outreach, alert e-mails); built once in the composition root. */
export interface MailSender {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<{ messageId: string }>;
}

/** E-mail over SMTP (nodemailer): `smtp://user:pass@host:port` or `smtps://…`. */
export class SmtpMailSender implements MailSender {
  readonly kind = 'smtp' as const;
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    opts: { tlsRejectUnauthorized?: boolean } = {},
  ) {
    const options: SMTPTransport.Options = {
      url: smtpUrl,
      // a slow relay must not hold an outreach step (and its request) for minutes
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
      ...(opts.tlsRejectUnauthorized === false ? { tls: { rejectUnauthorized: false } } : {}),
    };
    this.transport = createTransport(options);
  }

  async send(m: MailMessage): Promise<{ messageId: string }> {
    const info = await this.transport.sendMail({
      from: this.from,
      to: m.to,
      subject: m.subject,
      text: m.text,
      // base64 keeps the body byte-exact whatever its characters and line lengths
      textEncoding: 'base64',
      headers: m.headers ?? {},
    });
    return { messageId: String(info.messageId) };
  }
}

/** The sandbox default: nothing leaves the process; every message is kept for the demo and the tests. */
export class RecordingMailSender implements MailSender {
  readonly kind = 'outbox' as const;
  readonly sent: (MailMessage & { messageId: string })[] = [];

  send(m: MailMessage): Promise<{ messageId: string }> {
    const messageId = `<outbox-${this.sent.length + 1}@vend.test>`;
    this.sent.push({ ...m, messageId });
    return Promise.resolve({ messageId });
  }
}

/** SMTP when configured, else the recording outbox. */
export function mailSenderFor(config: { smtpUrl: string | undefined; from: string }): MailSender {
  return config.smtpUrl ? new SmtpMailSender(config.smtpUrl, config.from) : new RecordingMailSender();
}
