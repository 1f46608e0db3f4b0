import { z } from 'zod';

/** What a browser sends back from navigator.credentials: checked for shape, verified by @simplewebauthn. */
const credentialSchema = z.looseObject({
  id: z.string().regex(/^[A-Za-z0-9_-]{16,1400}$/),
  rawId: z.string().max(1400),
  type: z.literal('public-key'),
  response: z.looseObject({ clientDataJSON: z.string().max(10_000) }),
  clientExtensionResults: z.looseObject({}),
});

/** A WebAuthn ceremony's answer: the challenge it answers and the browser's credential. */
export const ceremonySchema = z.object({ challengeId: z.uuid(), response: credentialSchema });
