import type { Config } from '../../../config.ts';
import type { MailSender } from '../../../mail/mail-sender.ts';
import type { Channel, ChannelAdapter } from './channel.ts';
import { EmailChannel } from './email-channel.ts';
import { RecordingTelephony, TelephonyChannel } from './telephony.ts';

/**
 * The outreach channel adapters from the configuration: the real provider where configured, the recording
 * outbox in the sandbox otherwise (the demo works offline), and no adapter in production without a provider
 * (the channel is "not configured" and the rotation skips it).
 */
export function outreachChannelsFor(config: Pick<Config, 'mode' | 'telephony'>, mail: MailSender): Record<Channel, ChannelAdapter | null> {
  const sandbox = config.mode === 'sandbox';
  const phone = (channel: 'sms' | 'voice'): ChannelAdapter | null =>
    config.telephony ? new TelephonyChannel(channel, config.telephony) : sandbox ? new RecordingTelephony(channel) : null;
  return {
    email: mail.kind === 'smtp' || sandbox ? new EmailChannel(mail) : null,
    sms: phone('sms'),
    voice: phone('voice'),
  };
}
