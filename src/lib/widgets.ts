// Message widgets (/poll and /todo): the widget a message's content starts, and the checks of the submessages
// that vote, add options and tasks or change a title, as the reference server's zerver/lib/widget.py and
// validate_poll_data/validate_todo_data have them.

export type WidgetType = 'poll' | 'todo';
const WIDGET_TYPES: readonly string[] = ['poll', 'todo'];

// Python's str.splitlines: every line boundary it knows, no empty last line after a final break.
function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/);
  if (lines.length && lines.at(-1) === '') lines.pop();
  return lines;
}

// A list item's text without its bullet ("- " or "* ").
const unbullet = (line: string) => line.trim().replace(/^\s*[-*]?\s*/, '');

function pollData(rest: string) {
  const lines = splitLines(rest);
  let question = '';
  if (lines.length && lines[0]) question = lines.shift()!.trim();
  return { question, options: lines.map(unbullet).filter((o) => o.length > 0) };
}

function todoData(rest: string) {
  const lines = splitLines(rest);
  let title = '';
  if (lines.length && lines[0]) title = lines.shift()!.trim();
  const tasks = lines.map(unbullet).filter((t) => t.length > 0).map((t) => {
    const at = t.indexOf(': ');
    return at < 0 ? { task: t.trim(), desc: '' } : { task: t.slice(0, at).trim(), desc: t.slice(at + 2).trim() };
  });
  return { task_list_title: title, tasks };
}

// The widget a message's content asks for: its first word `/poll` or `/todo`, with the question and options
// (or title and tasks) on the lines that follow.
export function widgetOf(content: string): { widget_type: WidgetType; extra_data: Record<string, unknown> } | null {
  const first = content.split(/\s+|\n+/)[0];
  if (!first.startsWith('/') || !WIDGET_TYPES.includes(first.slice(1))) return null;
  const type = first.slice(1) as WidgetType;
  const rest = content.replace(first, '');
  return { widget_type: type, extra_data: type === 'poll' ? pollData(rest) : todoData(rest) };
}

// JSON as Python's json.dumps writes it (", " and ": " separators, non-ASCII escaped), so that widget
// submessages read exactly as the reference server stores them.
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  const text = JSON.stringify(value) ?? 'null';
  return typeof value === 'string' ? text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

// The reference's MAX_IDX: option and task indexes a client may use.
const MAX_IDX = 1000;

type Check = (name: string, value: unknown) => string | null; // an error message, or null

const isDict = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString: Check = (n, v) => (typeof v === 'string' ? null : `${n} is not a string`);
const isBool: Check = (n, v) => (typeof v === 'boolean' ? null : `${n} is not a boolean`);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const intIn = (allowed: number[]): Check => (n, v) => (!isInt(v) ? `${n} is not an integer` : allowed.includes(v) ? null : `Invalid ${n}`);
const intRange = (low: number, high: number): Check => (n, v) =>
  !isInt(v) ? `${n} is not an integer` : v < low ? `${n} is too small` : v > high ? `${n} is too large` : null;

// The reference's check_dict_only: exactly these keys, each passing its check.
function dictOnly(name: string, value: Record<string, unknown>, fields: [string, Check][]): string | null {
  for (const [key, check] of fields) {
    if (!(key in value)) return `${name}["${key}"] is missing`;
    const error = check(`${name}["${key}"]`, value[key]);
    if (error) return error;
  }
  const extra = Object.keys(value).filter((k) => !fields.some(([f]) => f === k));
  return extra.length ? `Unexpected arguments: ${extra.join(', ')}` : null;
}

function typed(name: string, data: unknown): Record<string, unknown> | string {
  if (!isDict(data)) return `${name} is not a dict`;
  if (!('type' in data)) return `${name}["type"] is missing`;
  return typeof data.type === 'string' ? data : `${name}["type"] is not a string`;
}

// An error message for a submessage of a poll or to-do list, or null when it is valid.
export function checkWidgetEvent(widget: WidgetType, data: unknown, isAuthor: boolean): string | null {
  const name = widget === 'poll' ? 'poll data' : 'todo data';
  const d = typed(name, data);
  if (typeof d === 'string') return d;
  if (widget === 'poll') {
    switch (d.type) {
      case 'vote':
        return dictOnly(name, d, [['type', isString], ['key', isString], ['vote', intIn([1, -1])]]);
      case 'question':
        if (!isAuthor) return "You can't edit a question unless you are the author.";
        return dictOnly(name, d, [['type', isString], ['question', isString]]);
      case 'new_option':
        return dictOnly(name, d, [['type', isString], ['option', isString], ['idx', intRange(0, MAX_IDX)]]);
      default:
        return `Unknown type for poll data: ${String(d.type)}`;
    }
  }
  switch (d.type) {
    case 'new_task':
      return dictOnly(name, d, [['type', isString], ['key', intRange(0, MAX_IDX)], ['task', isString], ['desc', isString], ['completed', isBool]]);
    case 'strike':
      return dictOnly(name, d, [['type', isString], ['key', isString]]);
    case 'new_task_list_title':
      if (!isAuthor) return "You can't edit the task list title unless you are the author.";
      return dictOnly(name, d, [['type', isString], ['title', isString]]);
    default:
      return `Unknown type for todo data: ${String(d.type)}`;
  }
}
