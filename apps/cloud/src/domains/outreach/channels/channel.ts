/** The outreach channels (spec 3 §1: voice, text message, e-mail), in the default rotation order. */
export const CHANNELS = ['email', 'sms', 'voice'] as const;
export type Channel = (typeof CHANNELS)[number];

/** A message rendered from the script library, exactly as it is sent. */
export interface RenderedMessage {
  channel: Channel;
  scriptId: string;
  scriptVersion: string;
  /** E-mail only. */
  subject: string | null;
  /** The text (e-mail body, text message, or what the voice call says). */
  body: string;
  /** E-mail only: the one-click unsubscribe link (also in the body). */
  unsubscribeUrl: string | null;
}

/** Sends one rendered message on one channel; `real` adapters reach a provider, `outbox` ones only record. */
export interface ChannelAdapter {
  readonly channel: Channel;
  readonly kind: 'real' | 'outbox';
  send(to: string, message: RenderedMessage, statusCallbackUrl: string): Promise<{ providerRef: string }>;
}
