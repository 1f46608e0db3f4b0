import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { CAPTION_LINES, IDLE, VOICE_TOASTS, VoiceCall, type VoiceClient, type VoiceSnapshot } from './voice-call.ts';

/** A stand-in for @vapi-ai/web's client: an event emitter with its methods. */
class FakeClient extends EventEmitter implements VoiceClient {
  startResult: Promise<unknown> = new Promise(() => {});
  start = vi.fn((_assistantId: string, _overrides?: unknown) => this.startResult);
  stop = vi.fn(async () => {});
  setMuted = vi.fn((_mute: boolean) => {});
}

function setup(client = new FakeClient(), consent: () => Promise<boolean> = async () => true) {
  const toasts: string[] = [];
  const states: VoiceSnapshot[] = [];
  const createClient = vi.fn(async () => client);
  const call = new VoiceCall({
    assistantId: 'asistente',
    createClient,
    notify: (toast) => toasts.push(`${toast.title}: ${toast.description}`),
    onChange: (snapshot) => states.push(snapshot),
    metadata: () => ({ page: '/modelos', utm_campaign: 'otono-2026' }),
    consent,
  });
  return { call, client, toasts, states, createClient };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));
const text = (toast: { title: string; description: string }) => `${toast.title}: ${toast.description}`;

describe('VoiceCall', () => {
  it('starts idle and creates the client only on the first press, with the error listener first', async () => {
    const { call, client, createClient } = setup();
    expect(call.current).toEqual(IDLE);
    expect(createClient).not.toHaveBeenCalled();
    void call.press();
    await flush();
    expect(createClient).toHaveBeenCalledTimes(1);
    expect(client.listenerCount('error')).toBe(1);
    expect(client.start).toHaveBeenCalledWith('asistente', {
      metadata: { page: '/modelos', utm_campaign: 'otono-2026' },
      variableValues: { pagina: '/modelos' },
    });
    expect(call.current.state).toBe('connecting');
  });

  it('goes connected on call-start, speaking while the agent talks, idle on call-end', async () => {
    const { call, client, toasts } = setup();
    void call.press();
    await flush();
    client.emit('call-start');
    expect(call.current).toMatchObject({ state: 'connected', speaking: false });
    client.emit('speech-start');
    expect(call.current.speaking).toBe(true);
    client.emit('speech-end');
    expect(call.current.speaking).toBe(false);
    client.emit('call-end');
    expect(call.current).toEqual(IDLE);
    expect(toasts).toEqual([text(VOICE_TOASTS.connected), text(VOICE_TOASTS.ended)]);
  });

  it('hangs up when pressed while connected', async () => {
    const { call, client, toasts } = setup();
    void call.press();
    await flush();
    client.emit('call-start');
    await call.press();
    expect(client.stop).toHaveBeenCalledTimes(1);
    expect(call.current.state).toBe('idle');
    client.emit('call-end'); // the SDK's own end signal after stop() adds nothing
    expect(toasts).toEqual([text(VOICE_TOASTS.connected), text(VOICE_TOASTS.ended)]);
  });

  it('cancels when pressed again while connecting, and ignores the late call-start', async () => {
    const { call, client, toasts } = setup();
    void call.press();
    await flush();
    await call.press();
    expect(call.current.state).toBe('idle');
    expect(client.stop).toHaveBeenCalledTimes(1);
    client.emit('call-start');
    expect(call.current.state).toBe('idle');
    expect(toasts).toEqual([]);
  });

  it('shows the start failure and returns to idle when start() resolves null', async () => {
    const client = new FakeClient();
    client.startResult = Promise.resolve(null);
    const { call, toasts } = setup(client);
    await call.press();
    expect(call.current.state).toBe('idle');
    expect(toasts).toEqual([text(VOICE_TOASTS.startFailed)]);
  });

  it('shows one start-failure toast when the SDK emits error and then resolves null', async () => {
    const client = new FakeClient();
    let resolveStart: (value: unknown) => void = () => {};
    client.startResult = new Promise((resolve) => {
      resolveStart = resolve;
    });
    const { call, toasts } = setup(client);
    const pressing = call.press();
    await flush();
    client.emit('error', { type: 'start-method-error', error: { status: 500 } });
    resolveStart(null);
    await pressing;
    expect(toasts).toEqual([text(VOICE_TOASTS.startFailed)]);
    expect(call.current.state).toBe('idle');
  });

  it('explains how to allow the microphone when permission is refused', async () => {
    const client = new FakeClient();
    client.startResult = Promise.resolve(null);
    client.start.mockImplementationOnce(async () => {
      client.emit('error', {
        type: 'daily-call-join-error',
        error: new DOMException('Permission denied', 'NotAllowedError'),
      });
      return null;
    });
    const { call, toasts } = setup(client);
    await call.press();
    expect(toasts).toEqual([text(VOICE_TOASTS.microphone)]);
    expect(call.current.state).toBe('idle');
  });

  it('shows the destructive call error when a connected call fails', async () => {
    const { call, client, toasts } = setup();
    void call.press();
    await flush();
    client.emit('call-start');
    client.emit('error', { type: 'daily-error', message: 'ejected' });
    expect(call.current.state).toBe('idle');
    expect(toasts.at(-1)).toBe(text(VOICE_TOASTS.callError));
    expect(VOICE_TOASTS.callError.variant).toBe('destructive');
  });

  it('shows the start failure when the SDK cannot even load', async () => {
    const toasts: string[] = [];
    const call = new VoiceCall({
      assistantId: 'a',
      createClient: () => Promise.reject(new Error('chunk failed')),
      notify: (toast) => toasts.push(toast.title),
      onChange: () => {},
      metadata: () => ({}),
      consent: async () => true,
    });
    await call.press();
    expect(call.current.state).toBe('idle');
    expect(toasts).toEqual(['Error']);
  });

  it('ends the call when the page goes away (unmount)', async () => {
    const { call, client } = setup();
    void call.press();
    await flush();
    client.emit('call-start');
    call.dispose();
    expect(client.stop).toHaveBeenCalledTimes(1);
    expect(call.current.state).toBe('idle');
  });

  it('creates one client for the page, however many calls', async () => {
    const client = new FakeClient();
    client.startResult = Promise.resolve({ id: 'call' });
    const { call, createClient } = setup(client);
    await call.press();
    client.emit('call-start');
    await call.press();
    await call.press();
    expect(createClient).toHaveBeenCalledTimes(1);
    expect(client.listenerCount('call-start')).toBe(1);
  });
});

describe('consent, captions and mute', () => {
  it('asks before calling: a "no" keeps the widget idle and loads nothing; a "yes" calls', async () => {
    const answers = [false, true];
    const consent = vi.fn(async () => answers.shift() ?? true);
    const { call, client, createClient, states } = setup(new FakeClient(), consent);
    await call.press();
    expect(consent).toHaveBeenCalledTimes(1);
    expect(createClient).not.toHaveBeenCalled();
    expect(states).toEqual([]);
    void call.press();
    await flush();
    expect(createClient).toHaveBeenCalledTimes(1);
    expect(client.start).toHaveBeenCalledTimes(1);
    expect(call.current.state).toBe('connecting');
  });

  it('shows the live transcript: partial words grow in place, final lines settle, three lines at most', async () => {
    const { call, client } = setup();
    void call.press();
    await flush();
    client.emit('message', { type: 'transcript', role: 'assistant', transcriptType: 'partial', transcript: 'Hola' });
    expect(call.current.captions).toEqual([]); // not connected yet
    client.emit('call-start');
    const say = (role: string, transcriptType: string, transcript: string) =>
      client.emit('message', { type: 'transcript', role, transcriptType, transcript });
    say('assistant', 'partial', 'Hola, soy');
    say('assistant', 'partial', 'Hola, soy el asistente');
    expect(call.current.captions).toEqual([{ role: 'agente', text: 'Hola, soy el asistente', final: false }]);
    say('assistant', 'final', 'Hola, soy el asistente de Casas Ceiba.');
    say('user', 'partial', 'Quiero');
    expect(call.current.captions).toEqual([
      { role: 'agente', text: 'Hola, soy el asistente de Casas Ceiba.', final: true },
      { role: 'visitante', text: 'Quiero', final: false },
    ]);
    say('user', 'final', 'Quiero una cotización.');
    say('assistant', 'final', 'Con gusto.');
    say('user', 'final', 'Gracias.');
    client.emit('message', { type: 'status-update', status: 'in-progress' });
    client.emit('message', { type: 'transcript', role: 'system', transcript: 'x' });
    expect(call.current.captions.map((line) => line.text)).toEqual([
      'Quiero una cotización.',
      'Con gusto.',
      'Gracias.',
    ]);
    expect(call.current.captions).toHaveLength(CAPTION_LINES);
    client.emit('call-end');
    expect(call.current.captions).toEqual([]);
  });

  it('mutes and unmutes the microphone while connected, with the level meter at rest when muted', async () => {
    const { call, client } = setup();
    call.toggleMute(); // idle: nothing to mute
    expect(client.setMuted).not.toHaveBeenCalled();
    void call.press();
    await flush();
    client.emit('call-start');
    client.emit('local-volume-level', 0.64);
    expect(call.current.level).toBe(0.6);
    call.toggleMute();
    expect(client.setMuted).toHaveBeenLastCalledWith(true);
    expect(call.current).toMatchObject({ muted: true, level: 0 });
    client.emit('local-volume-level', 0.9);
    expect(call.current.level).toBe(0);
    call.toggleMute();
    expect(client.setMuted).toHaveBeenLastCalledWith(false);
    client.emit('local-volume-level', 2);
    expect(call.current).toMatchObject({ muted: false, level: 1 });
    client.emit('call-end');
    expect(call.current).toEqual(IDLE);
  });
});
