/**
 * "Test connection" in the dashboard: one tiny turn ("Say OK.") with a short timeout, answering
 * which model replied and how long the round trip took, or the sentence saying why not. It never
 * throws: a failure is the answer.
 */
import type { ConnectionTestResult } from '../../contract/model-settings.ts';
import type { ModelProvider } from './types.ts';

export const CONNECTION_TEST_TIMEOUT_MS = 10_000;

export async function testConnection(
  provider: ModelProvider,
  options: { timeoutMs?: number; now?: () => number } = {},
): Promise<ConnectionTestResult> {
  const timeoutMs = options.timeoutMs ?? CONNECTION_TEST_TIMEOUT_MS;
  const now = options.now ?? Date.now;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer within ${seconds(timeoutMs)} s`)), timeoutMs);
  const started = now();
  let model = provider.model;
  try {
    const stream = provider.stream({
      system: 'You are being tested. Answer with one word.',
      messages: [{ role: 'user', content: 'Say OK.' }],
      tools: [],
      signal: controller.signal,
      maxTokens: 16,
    });
    for await (const event of stream) {
      if (event.type === 'start' && event.model) model = event.model;
      if (event.type === 'error') return { ok: false, error: event.error };
      if (event.type === 'done') return { ok: true, model, latencyMs: Math.round(now() - started) };
    }
    return { ok: false, error: 'the model stream ended without an answer' };
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

const seconds = (ms: number) => (ms < 1000 ? (ms / 1000).toFixed(1) : String(Math.round(ms / 1000)));
