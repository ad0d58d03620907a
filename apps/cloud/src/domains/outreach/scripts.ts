import type { Channel, RenderedMessage } from './channels/channel.ts';

/**
 * THE outreach script library: every message any channel sends is rendered here, and the version is
 * recorded on the deal's touch and on the message row. Change a script's words → bump the version.
 *
 * A script sees only `ScriptFacts`: names and links, never the deal itself. The negotiation envelope
 * (share target/max, term bounds) is not a field of it, so no script can carry it (a property test
 * renders every script with hostile envelopes and notes and checks).
 */
export const SCRIPT_LIBRARY_VERSION = 'outreach-scripts@1';

export const SCRIPT_KINDS = ['intro', 'follow_up'] as const;
export type ScriptKind = (typeof SCRIPT_KINDS)[number];

/** What a script may say: deliberately no money, no terms. */
export interface ScriptFacts {
  venueName: string;
  senderName: string;
  /** The machine's plain-words description (its tier's name). */
  machine: string;
  /** E-mail only. */
  unsubscribeUrl: string | null;
}

interface Script {
  subject?: (f: ScriptFacts) => string;
  body: (f: ScriptFacts) => string;
}

const emailFooter = (f: ScriptFacts) =>
  `\n\n--\nNot interested? Unsubscribe with one click: ${f.unsubscribeUrl ?? ''}\nOr reply STOP and we will not contact you again.`;

const SCRIPTS: Record<ScriptKind, Record<Channel, Script>> = {
  intro: {
    email: {
      subject: (f) => `A free vending machine for ${f.venueName}?`,
      body: (f) =>
        `Hello ${f.venueName} team,\n\n` +
        `I'm ${f.senderName}. We place and run modern self-service vending machines (a ${f.machine}) in venues like yours: ` +
        `we install, stock and service it at no cost to you, and you share in what it sells.\n\n` +
        `Would you be open to a short call this week to see whether it fits your space?\n\n` +
        `Best regards,\n${f.senderName}` +
        emailFooter(f),
    },
    sms: {
      body: (f) =>
        `Hi ${f.venueName}, this is ${f.senderName}. We place and service vending machines at no cost to the venue, with a share of sales for you. Interested in a quick chat? Reply YES, or STOP to opt out.`,
    },
    voice: {
      body: (f) =>
        `Hello, this is an automated call on behalf of ${f.senderName}. We place and service vending machines at no cost to venues like ${f.venueName}, and share the sales with you. ` +
        `We will follow up by e-mail. To never be called again, reply STOP to our text message or tell the person who calls back.`,
    },
  },
  follow_up: {
    email: {
      subject: (f) => `Following up: a vending machine for ${f.venueName}`,
      body: (f) =>
        `Hello ${f.venueName} team,\n\n` +
        `Just following up on my earlier note about placing a ${f.machine} at your venue: installation, stocking and service are on us, ` +
        `and you share in the sales.\n\nIs there a good time to talk?\n\nBest regards,\n${f.senderName}` +
        emailFooter(f),
    },
    sms: {
      body: (f) =>
        `Hi ${f.venueName}, ${f.senderName} again about a free-to-you vending machine with a share of sales. Still interested? Reply YES, or STOP to opt out.`,
    },
    voice: {
      body: (f) =>
        `Hello, this is a follow-up call on behalf of ${f.senderName} about placing a vending machine at ${f.venueName}, at no cost to you. ` +
        `To never be called again, reply STOP to our text message.`,
    },
  },
};

/** Renders one script of the library: the exact text a channel sends. */
export function renderScript(kind: ScriptKind, channel: Channel, facts: ScriptFacts): RenderedMessage {
  const s = SCRIPTS[kind][channel];
  return {
    channel,
    scriptId: `${kind}.${channel}`,
    scriptVersion: SCRIPT_LIBRARY_VERSION,
    subject: s.subject ? s.subject(facts) : null,
    body: s.body(facts),
    unsubscribeUrl: channel === 'email' ? facts.unsubscribeUrl : null,
  };
}

/** The first touch of a deal is the intro, later ones follow up. */
export function scriptKindFor(touchesSoFar: number): ScriptKind {
  return touchesSoFar === 0 ? 'intro' : 'follow_up';
}
