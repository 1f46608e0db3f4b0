import type { Page } from '@playwright/test';
import bcrypt from 'bcryptjs';
import { expect, uniqueName } from './fixtures.ts';
import { E2E_PORT } from './playwright.config.ts';

type Sql = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<R[]>;

/**
 * A member of the story's own (`role`, with `name` if given), signed in through the API (the cookie
 * lands in the page's context): stories run side by side, and each one's "mine", history and
 * activity lines are its own. The one-time setup is the administrator's story's (admin.spec.ts).
 */
export async function signInAsNewMember(
  page: Page,
  sql: Sql,
  {
    role,
    name = null,
    origin = `http://127.0.0.1:${E2E_PORT}`,
  }: { role: 'admin' | 'asesor'; name?: string | null; origin?: string },
): Promise<{ id: string; email: string; password: string }> {
  const email = `${uniqueName(role === 'admin' ? 'direccion' : 'asesora').replace(' ', '-')}@ceiba.mx`;
  const password = 'mérida-2026-segura';
  const [user] = await sql<{ id: string }>(
    'INSERT INTO users (email, password_hash, name) VALUES ($1, $2, $3) RETURNING id',
    [email, await bcrypt.hash(password, 4), name],
  );
  await sql('INSERT INTO user_roles (user_id, role) VALUES ($1, $2)', [user?.id, role]);
  const answer = await page.request.post(`${origin}/api/auth/login`, {
    data: { email, password },
    headers: { Origin: origin },
  });
  expect(answer.status()).toBe(200);
  return { id: user?.id as string, email, password };
}

/** An administrator of the story's own, signed in (signInAsNewMember). */
export const signInAsNewAdmin = (page: Page, sql: Sql, origin?: string) =>
  signInAsNewMember(page, sql, { role: 'admin', ...(origin ? { origin } : {}) });

export { seedMemberGiving } from '../support/advisers.ts';
