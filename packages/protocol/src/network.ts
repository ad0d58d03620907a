import { z } from 'zod';
import { lazySchema } from './lazy-schema.ts';

/** Network provisioning on a cabinet (spec 2 §8; docs/decisions/network.md). */
export const NETWORK_LIMITS = Object.freeze({
  /** A switch not seeing the cloud within this long goes back to the previous connection. */
  verifySeconds: 90,
  /** A provisioning token's lifetime. */
  tokenSeconds: 600,
  /** How often a switch probes the cloud. */
  pollSeconds: 3,
  /** Networks the agent keeps; a sixth forgets the oldest. */
  remembered: 5,
});

/** What a technician gives a cabinet: a Wi-Fi network, or a wired port by DHCP or a static address. */
export const NetworkRequest = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('wifi'),
      ssid: z
        .string()
        .min(1)
        .max(32)
        .refine(
          (ssid) => ssid === ssid.trim() && ![...ssid].some((c) => c < ' ' || c === '\x7f'),
          'an SSID without control characters or leading or trailing spaces',
        ),
      /** WPA-PSK passphrase (8–63 printable ASCII characters); absent for an open network. */
      psk: z
        .string()
        .regex(/^[\x21-\x7e][\x20-\x7e]{6,61}[\x21-\x7e]$/, '8 to 63 printable ASCII characters, no leading or trailing space')
        .optional(),
    }),
    z.strictObject({
      kind: z.literal('ethernet'),
      interface: z.string().regex(/^[A-Za-z0-9._-]{1,15}$/, 'an interface name'),
      /** `dhcp`, or a static `address/prefix` with its gateway and name servers. */
      address: z
        .string()
        .regex(/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/, 'a.b.c.d/prefix')
        .optional(),
      gateway: z
        .string()
        .regex(/^\d{1,3}(\.\d{1,3}){3}$/)
        .optional(),
      dns: z
        .array(z.string().regex(/^\d{1,3}(\.\d{1,3}){3}$/))
        .max(3)
        .optional(),
    }),
  ]),
);
export type NetworkRequest = z.infer<typeof NetworkRequest>;

/** The name a request is remembered under: a Wi-Fi network by its SSID, a wired one by its port (the same name replaces the older). */
export function networkLabel(req: NetworkRequest): string {
  return req.kind === 'wifi' ? `wifi:${req.ssid}` : `ethernet:${req.interface}`;
}

/** POST /v1/network/token `{code}`: a provisioning token, once the service code was right. */
export const ControlNetworkToken = lazySchema(() => z.object({ token: z.string(), expiresAt: z.string() }));
export type ControlNetworkToken = z.infer<typeof ControlNetworkToken>;

/** POST /v1/network: the switch started; GET /v1/network follows it. */
export const ControlNetworkSwitch = lazySchema(() => z.object({ id: z.string(), label: z.string() }));
export type ControlNetworkSwitch = z.infer<typeof ControlNetworkSwitch>;

export const NETWORK_SWITCH_OUTCOMES = ['connected', 'reverted', 'interrupted'] as const;

/** GET /v1/network: the connection in force, the networks kept, a switch under way, the last one's end. */
export const ControlNetworkStatus = lazySchema(() =>
  z.object({
    active: z.string().nullable(),
    remembered: z.array(z.object({ id: z.string(), label: z.string(), addedAt: z.string() })),
    switching: z.object({ target: z.string(), label: z.string(), previous: z.string().nullable(), phase: z.string(), startedAt: z.string() }).nullable(),
    last: z.object({ label: z.string(), outcome: z.enum(NETWORK_SWITCH_OUTCOMES), reason: z.string(), at: z.string() }).nullable(),
  }),
);
export type ControlNetworkStatus = z.infer<typeof ControlNetworkStatus>;
