import type { Page } from '@playwright/test';
import { CONSENT_VERSION } from '../../src/components/voice/preferences.ts';
import { accessibilityViolations, expect, picture, test, toast } from './fixtures.ts';

// The built site under test has PUBLIC_VAPI_PUBLIC_KEY and PUBLIC_VAPI_ASSISTANT_ID
// (npm run build:test); the voice platform and Daily are answered at the network edge.
const PAGES = ['/', '/modelos', '/prefiltro', '/estimacion', '/prefiltro-socios', '/aviso-de-privacidad'];

function voiceButton(page: Page) {
  return page.locator('[data-voice-button]');
}

/** The visitor already accepted the automated call on this device (stories about what comes after). */
async function consentGiven(page: Page) {
  await page.addInitScript((version) => localStorage.setItem('voiceConsent', version), CONSENT_VERSION);
}

/** On a phone the widget steps aside while a page button is under it: scroll to the footer, where none is. */
async function revealWidget(page: Page) {
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.locator('.voice-agent')).not.toHaveClass(/voice-agent-aside/);
}

/** Waits for the browser's log of the platform's refusal (`status`), the only console error expected, and takes it out. */
async function expectOnlyLogged(consoleErrors: string[], status: number) {
  const refusal = `the server responded with a status of ${status}`;
  await expect.poll(() => consoleErrors.some((message) => message.includes(refusal))).toBe(true);
  expect(consoleErrors.filter((message) => !message.includes(refusal))).toEqual([]);
  consoleErrors.splice(0);
}

test('the voice widget is on every page, with its label for the screen size', async ({ page }, testInfo) => {
  const mobile = testInfo.project.name === 'mobile';
  for (const path of PAGES) {
    await page.goto(path);
    await revealWidget(page);
    const button = voiceButton(page);
    await expect(button, path).toBeVisible();
    await expect(button).toHaveAccessibleName(mobile ? 'Hablar con agente' : 'Hablar con un agente');
    const box = await button.boundingBox();
    const viewport = page.viewportSize();
    expect(
      box && viewport && box.x + box.width > viewport.width - 40 && box.y + box.height > viewport.height - 40,
    ).toBe(true);
  }
});

test('downloads nothing of the voice SDK until pressed', async ({ page, consoleErrors }) => {
  await consentGiven(page);
  // Each script with what the visitor had done when it was asked for: whatever the page loads later by
  // itself (idle, visible) is seen too, without waiting for the network to fall quiet (which, on a busy
  // machine, it did not within the story's bound).
  let touched = false;
  const early: string[] = [];
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() !== 'script') return;
    const path = new URL(request.url()).pathname;
    scripts.push(path);
    if (!touched) early.push(path);
  });
  await page.route('https://api.vapi.ai/**', (route) => route.fulfill({ status: 500, body: '{}' }));
  await page.goto('/');
  await revealWidget(page);

  touched = true;
  await voiceButton(page).hover(); // hydrates the island: still no SDK
  await expect(voiceButton(page)).toHaveAttribute('data-enhanced', 'ready');
  expect(scripts.filter((path) => /vapi/.test(path))).toEqual([]);

  await voiceButton(page).click();
  await expect.poll(() => scripts.some((path) => /\/_astro\/vapi\./.test(path))).toBe(true);
  // The press goes on to the platform, answered 500 above: the test ends when the visitor is
  // told, with the browser's log of that answer, never while the call is still in flight.
  await expect(toast(page, 'Error')).toContainText('No se pudo iniciar la llamada. Por favor, intenta de nuevo.');
  await expect(voiceButton(page)).toHaveAttribute('data-state', 'idle');
  await expectOnlyLogged(consoleErrors, 500);
  // Nothing of the widget or its SDK was asked for before the visitor reached the button.
  expect(early.filter((path) => /vapi|VoiceWidget/.test(path))).toEqual([]);
});

for (const status of [500, 401]) {
  test(`a ${status} from the voice platform shows the start failure and returns to idle`, async ({
    page,
    consoleErrors,
  }) => {
    await consentGiven(page);
    const calls: string[] = [];
    await page.route('https://api.vapi.ai/**', (route) => {
      calls.push(`${route.request().method()} ${new URL(route.request().url()).pathname}`);
      return route.fulfill({ status, contentType: 'application/json', body: JSON.stringify({ message: 'no' }) });
    });
    await page.route(/daily\.co|pluot\.blue/, (route) => route.abort());
    await page.goto('/modelos');
    await revealWidget(page);
    const button = voiceButton(page);
    await button.click(); // before hydration: the page script keeps the press for the island
    await expect(toast(page, 'Error')).toContainText('No se pudo iniciar la llamada. Por favor, intenta de nuevo.');
    await expect(button).toHaveAttribute('data-state', 'idle');
    await expect(button).toBeEnabled();
    expect(calls).toContain('POST /call/web');
    await expectOnlyLogged(consoleErrors, status);
  });
}

test('shows "Conectando..." while the call is being created, and a second press cancels', async ({
  page,
  consoleErrors,
}) => {
  await consentGiven(page);
  let release: () => void = () => {};
  // Whether the late 500 reached the page: the cancel may have aborted the request first (nothing to log then).
  let answered: (reached: boolean) => void = () => {};
  const reached = new Promise<boolean>((resolve) => {
    answered = resolve;
  });
  // The platform has the call's request in hand: only then is the second press a cancel of it (pressed
  // before, the request may never be sent, and nothing would ever say whether its 500 reached the page:
  // a full run waited for that until its timeout).
  let held: () => void = () => {};
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  await page.route('https://api.vapi.ai/**', async (route) => {
    await new Promise<void>((resolve) => {
      release = resolve;
      held();
    });
    answered(
      await route.fulfill({ status: 500, body: '{}' }).then(
        () => true,
        () => false,
      ),
    );
  });
  await page.goto('/');
  await revealWidget(page);
  const button = voiceButton(page);
  await button.hover();
  await expect(button).toHaveAttribute('data-enhanced', 'ready');
  await button.click();
  await expect(button).toHaveAttribute('data-state', 'connecting');
  await expect(button).toContainText('Conectando...');
  await holding;
  await button.click();
  await expect(button).toHaveAttribute('data-state', 'idle');
  release();
  // The cancelled call's late 500, when it reaches the page (the browser logs it), changes nothing.
  if (await reached) await expectOnlyLogged(consoleErrors, 500);
  else expect(consoleErrors).toEqual([]);
  await expect(button).toHaveAttribute('data-state', 'idle');
  await expect(page.locator('.toast')).toHaveCount(0);
});

test('steps aside on a phone while a submit button is on screen', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'a phone-width behaviour');
  await page.goto('/prefiltro');
  const submit = page.getByRole('button', { name: 'Descubre si es tu momento' });
  // Bring the submit button to the bottom of the screen, where the widget sits.
  await submit.evaluate((node) =>
    window.scrollTo(0, window.scrollY + node.getBoundingClientRect().bottom - window.innerHeight + 20),
  );
  await expect(page.locator('.voice-agent')).toHaveClass(/voice-agent-aside/);
  // It slides away (a 200 ms transition): where it ends, not where the class finds it, covers nothing. Beside a
  // second `npm test` the geometry was read mid-slide once, over the button.
  const coversTheButton = async () => {
    const widget = await voiceButton(page).boundingBox();
    const target = await submit.boundingBox();
    const overlaps =
      !!widget &&
      !!target &&
      widget.y < target.y + target.height &&
      widget.y + widget.height > target.y &&
      widget.x < target.x + target.width;
    return overlaps && (widget?.y ?? 0) < (page.viewportSize()?.height ?? 0);
  };
  await expect.poll(coversTheButton).toBe(false);
});

/**
 * The voice SDK as the browser downloads it (the widget's lazy `vapi` chunk),
 * answered at the network edge by a stand-in with the SDK's surface: `on`,
 * `start(assistantId, overrides)`, `stop`, `setMuted`. A real call needs the
 * platform and Daily's media servers; this lets the story reach "connected"
 * and drive the SDK's documented client events (`message` transcripts,
 * `local-volume-level`) from the test.
 */
const FAKE_SDK = `
class FakeVapi {
  constructor() { this.listeners = {}; window.__voice = this; window.__voiceLog = []; }
  on(event, listener) { (this.listeners[event] ??= []).push(listener); return this; }
  emit(event, value) { for (const listener of this.listeners[event] ?? []) listener(value); }
  async start(assistantId, overrides) {
    window.__voiceLog.push(['start', assistantId, overrides]);
    setTimeout(() => this.emit('call-start'), 50);
    return { id: 'llamada-de-prueba' };
  }
  async stop() { window.__voiceLog.push(['stop']); setTimeout(() => this.emit('call-end'), 10); }
  setMuted(mute) { window.__voiceLog.push(['setMuted', mute]); }
}
export default FakeVapi;
`;

async function fakeSdk(page: Page) {
  await page.route(/\/_astro\/vapi\.[\w-]+\.js$/, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_SDK }),
  );
}

const emit = (page: Page, event: string, value?: unknown) =>
  page.evaluate(
    ([name, payload]) =>
      (window as unknown as { __voice: { emit(e: unknown, v: unknown): void } }).__voice.emit(name, payload),
    [event, value] as const,
  );
const voiceLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { __voiceLog: unknown[][] }).__voiceLog ?? []);

test('asks before the first call on a device: "Ahora no" keeps it idle, "Aceptar y llamar" calls and is remembered', async ({
  page,
}) => {
  await fakeSdk(page);
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  await page.goto('/modelos');
  await revealWidget(page);
  const button = voiceButton(page);
  await button.click();
  const dialog = page.getByRole('dialog', { name: 'Antes de llamar' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Te atenderá un agente automático; la llamada puede grabarse y transcribirse.');
  await expect(dialog.getByRole('link', { name: 'Aviso de privacidad' })).toHaveAttribute(
    'href',
    '/aviso-de-privacidad#llamada-con-el-agente-de-voz',
  );
  expect(await accessibilityViolations(page)).toEqual([]);

  await dialog.getByRole('button', { name: 'Ahora no' }).click();
  await expect(dialog).toBeHidden();
  await expect(button).toHaveAttribute('data-state', 'idle');
  await expect(button).toBeFocused();
  expect(scripts.filter((path) => /\/_astro\/vapi\./.test(path))).toEqual([]);

  // Esc is a "no" too.
  await button.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(button).toHaveAttribute('data-state', 'idle');

  await button.click();
  await dialog.getByRole('button', { name: 'Aceptar y llamar' }).click();
  await expect(button).toHaveAttribute('data-state', 'connected');
  await button.click(); // hang up
  await expect(button).toHaveAttribute('data-state', 'idle');

  await page.reload();
  await revealWidget(page);
  await voiceButton(page).click();
  await expect(voiceButton(page)).toHaveAttribute('data-state', 'connected');
  await expect(dialog).toBeHidden();
});

test('while connected: captions of the live transcript, announced politely, mute with its level meter, and the page and campaign sent with the call', async ({
  page,
}, testInfo) => {
  const phone = testInfo.project.name === 'mobile';
  await consentGiven(page);
  await fakeSdk(page);
  await page.goto('/?utm_source=facebook&utm_campaign=otono-2026');
  await page.goto('/modelos');
  await revealWidget(page);
  await voiceButton(page).click();
  await expect(voiceButton(page)).toHaveAttribute('data-state', 'connected');
  await expect(toast(page, 'Conectado')).toBeVisible();

  const [start] = await voiceLog(page);
  expect(start).toEqual([
    'start',
    'test-assistant-id',
    {
      metadata: expect.objectContaining({ page: '/modelos', utm_source: 'facebook', utm_campaign: 'otono-2026' }),
      // The assistant's {{pagina}}: the agent speaks of the page the call started on (issue #42).
      variableValues: { pagina: '/modelos' },
    },
  ]);

  // Captions: off by default on a phone, on elsewhere; the choice is remembered.
  const captions = page.getByRole('button', { name: 'Subtítulos' });
  await expect(captions).toHaveAttribute('aria-pressed', phone ? 'false' : 'true');
  if (phone) await captions.click();
  await expect(captions).toHaveAttribute('aria-pressed', 'true');
  const transcript = page.locator('[data-voice-transcript]');
  await expect(transcript).toContainText('Los subtítulos aparecerán aquí');
  await emit(page, 'message', {
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'partial',
    transcript: 'Hola, soy',
  });
  await expect(transcript).toContainText('Agente: Hola, soy');
  await emit(page, 'message', {
    type: 'transcript',
    role: 'assistant',
    transcriptType: 'final',
    transcript: 'Hola, soy el asistente de Casas Ceiba.',
  });
  await emit(page, 'message', {
    type: 'transcript',
    role: 'user',
    transcriptType: 'final',
    transcript: 'Quiero una cotización.',
  });
  await expect(transcript).toContainText('Tú: Quiero una cotización.');
  await expect(page.locator('.voice-agent [aria-live="polite"]')).toHaveText('Tú: Quiero una cotización.');
  // The widget's own controls and captions (the page under them is checked in site.spec.ts).
  expect(await accessibilityViolations(page, '.voice-agent')).toEqual([]);
  await picture(page, { path: `test-results/e2e/voz-conectada-${testInfo.project.name}.png` });

  // Mute: the label says what the button will do; the meter rests while muted.
  await emit(page, 'local-volume-level', 0.8);
  const meter = page.locator('[data-voice-level]');
  await expect(meter).toHaveAttribute('data-voice-level', '0.8');
  await page.getByRole('button', { name: 'Silenciar micrófono' }).click();
  const unmute = page.getByRole('button', { name: 'Activar micrófono' });
  await expect(unmute).toHaveAttribute('aria-pressed', 'true');
  await expect(meter).toHaveAttribute('data-voice-level', '0');
  await unmute.click();
  await expect(page.getByRole('button', { name: 'Silenciar micrófono' })).toHaveAttribute('aria-pressed', 'false');
  expect((await voiceLog(page)).filter(([kind]) => kind === 'setMuted')).toEqual([
    ['setMuted', true],
    ['setMuted', false],
  ]);

  // Hanging up: the original toast, the controls go away.
  await voiceButton(page).click();
  await expect(toast(page, 'Llamada finalizada')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subtítulos' })).toHaveCount(0);

  // The captions choice outlives the page.
  await page.reload();
  await revealWidget(page);
  await voiceButton(page).click();
  await expect(page.getByRole('button', { name: 'Subtítulos' })).toHaveAttribute('aria-pressed', 'true');
});
