/** The admin panel's calls: JSON in and out, a 401 anywhere sends the visitor to /auth. */
export async function apiCall<T>(
  path: string,
  init: RequestInit = {},
): Promise<{ ok: boolean; status: number; body: T }> {
  const response = await fetch(path, {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
    credentials: 'same-origin',
  });
  const body = (response.status === 204 ? {} : await response.json().catch(() => ({}))) as T;
  return { ok: response.ok, status: response.status, body };
}

export function goTo(path: string): void {
  window.location.assign(path);
}
