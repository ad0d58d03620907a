import type { MailSender } from '../../../mail/mail-sender.ts';
import type { ChannelAdapter, RenderedMessage } from './channel.ts';

/** E-mail outreach through the cloud's one mail sender (SMTP, or the recording outbox in the sandbox). */
export class EmailChannel implements ChannelAdapter {
  readonly channel = 'email' as const;
  constructor(private readonly mail: MailSender) {}

  get kind(): 'real' | 'outbox' {
    return this.mail.kind === 'smtp' ? 'real' : 'outbox';
  }

  async send(to: string, m: RenderedMessage): Promise<{ providerRef: string }> {
    const { messageId } = await this.mail.send({
      to,
      subject: m.subject ?? '',
      text: m.body,
      // RFC 8058 one-click unsubscribe: mail clients offer it without opening the message
      ...(m.unsubscribeUrl ? { headers: { 'List-Unsubscribe': `<${m.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
    });
    return { providerRef: messageId };
  }
}
