// JSON already serialized, to be placed as is into a response (src/http/server.ts): an event sent to a hundred
// queues is serialized once, not once per poll that carries it.
export class JsonText {
  constructor(readonly text: string) {}
}

// `{"result":…, ...}` with JsonText values spliced in; other values as JSON.stringify writes them.
export function stringifyWithText(body: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    const text = v instanceof JsonText ? v.text : JSON.stringify(v);
    if (text !== undefined) parts.push(`${JSON.stringify(k)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}
