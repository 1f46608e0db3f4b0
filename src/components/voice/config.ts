/** The voice widget's public configuration; null (no widget at all) when either value is missing. */
export function voiceConfig(
  env: Record<string, string | undefined>,
): { publicKey: string; assistantId: string } | null {
  const publicKey = env.PUBLIC_VAPI_PUBLIC_KEY?.trim();
  const assistantId = env.PUBLIC_VAPI_ASSISTANT_ID?.trim();
  return publicKey && assistantId ? { publicKey, assistantId } : null;
}
