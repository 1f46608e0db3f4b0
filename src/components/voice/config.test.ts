import { expect, it } from 'vitest';
import { voiceConfig } from './config.ts';

it('needs both the public key and the assistant id, or there is no widget', () => {
  expect(voiceConfig({})).toBeNull();
  expect(voiceConfig({ PUBLIC_VAPI_PUBLIC_KEY: 'k' })).toBeNull();
  expect(voiceConfig({ PUBLIC_VAPI_ASSISTANT_ID: 'a' })).toBeNull();
  expect(voiceConfig({ PUBLIC_VAPI_PUBLIC_KEY: ' ', PUBLIC_VAPI_ASSISTANT_ID: 'a' })).toBeNull();
  expect(voiceConfig({ PUBLIC_VAPI_PUBLIC_KEY: 'k', PUBLIC_VAPI_ASSISTANT_ID: 'a' })).toEqual({
    publicKey: 'k',
    assistantId: 'a',
  });
});
