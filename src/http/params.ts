// Each endpoint declares its parameters once; parsing, TypeScript types and the OpenAPI document all come from
// that declaration. Values arrive as strings (query, urlencoded or multipart): structured values are JSON (with
// or without spaces), plain strings are taken raw.
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { tooMany } from '../lib/limits.js';
import { codePointLength, hasNullByte } from '../lib/text.js';
import { ConfusingArgumentError, InvalidArgumentError, InvalidJsonError, MissingArgumentError } from '../lib/errors.js';

type Parser<T> = (raw: string, name: string) => T;

interface ParamDef<T> {
  parse: Parser<T>;
  schema: Record<string, unknown>;
  required: boolean;
  hasDefault: boolean;
  defaultValue?: T;
  aliases: string[];
  description?: string;
}

export class Param<T, Present extends boolean = true> {
  declare readonly _present: Present;
  constructor(readonly def: ParamDef<T>) {}

  optional(): Param<T, false> {
    return new Param<T, false>({ ...this.def, required: false });
  }
  default(value: T): Param<T, true> {
    return new Param<T, true>({ ...this.def, required: false, hasDefault: true, defaultValue: value });
  }
  alias(...names: string[]): Param<T, Present> {
    return new Param<T, Present>({ ...this.def, aliases: [...this.def.aliases, ...names] });
  }
  describe(description: string): Param<T, Present> {
    return new Param<T, Present>({ ...this.def, description });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ParamDecl = Record<string, Param<any, boolean>>;
export type Params<D extends ParamDecl> = {
  [K in keyof D]: D[K] extends Param<infer T, infer P> ? (P extends true ? T : T | undefined) : never;
};

function make<T>(parse: Parser<T>, schema: Record<string, unknown>): Param<T, true> {
  return new Param<T, true>({ parse, schema, required: true, hasDefault: false, aliases: [] });
}

const INTEGER = /^-?\d+$/;

function parseInteger(raw: string, name: string, min?: number, max?: number): number {
  const text = raw.trim();
  const value = INTEGER.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value)) throw new InvalidArgumentError(name, `${name} is not an integer`);
  if (min !== undefined && value < min) throw new InvalidArgumentError(name, `${name} is too small`);
  if (max !== undefined && value > max) throw new InvalidArgumentError(name, `${name} is too large`);
  return value;
}

function parseBoolean(raw: string, name: string): boolean {
  const text = raw.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new InvalidArgumentError(name, `${name} is not a boolean`);
}

function checkString(raw: string, name: string, opts: StringOptions): string {
  if (hasNullByte(raw)) throw new InvalidArgumentError(name, `${name} contains NULL (0x00) characters`);
  if (opts.maxLength !== undefined && codePointLength(raw) > opts.maxLength) {
    throw new InvalidArgumentError(name, `${name} is too long (limit: ${opts.maxLength} characters)`);
  }
  if (opts.minLength !== undefined && codePointLength(raw) < opts.minLength) {
    throw new InvalidArgumentError(name, `${name} is too short`);
  }
  return raw;
}

export interface StringOptions {
  maxLength?: number;
  minLength?: number;
}

export function str(opts: StringOptions = {}): Param<string> {
  return make((raw, name) => checkString(raw, name, opts), { type: 'string', ...opts });
}

export function int(opts: { min?: number; max?: number } = {}): Param<number> {
  return make((raw, name) => parseInteger(raw, name, opts.min, opts.max), {
    type: 'integer',
    ...(opts.min !== undefined ? { minimum: opts.min } : {}),
    ...(opts.max !== undefined ? { maximum: opts.max } : {}),
  });
}

export function bool(): Param<boolean> {
  return make(parseBoolean, { type: 'boolean' });
}

export function oneOf<const V extends string>(values: readonly V[]): Param<V> {
  return make((raw, name) => {
    if (!(values as readonly string[]).includes(raw)) {
      throw new InvalidArgumentError(name, `Invalid ${name}: ${JSON.stringify(raw)}`);
    }
    return raw as V;
  }, { type: 'string', enum: [...values] });
}

// POST /register's idle_queue_timeout: seconds, or the named lifetime "mobile" (a JSON string from the mobile
// app, which JSON-encodes every value, or raw).
export function idleQueueTimeout(): Param<number | 'mobile'> {
  return make((raw, name) => {
    const text = raw.trim();
    if (text === 'mobile' || text === '"mobile"') return 'mobile';
    if (!INTEGER.test(text) || !Number.isSafeInteger(Number(text))) throw new InvalidArgumentError(name, `Invalid ${name}`);
    return Number(text);
  }, { oneOf: [{ type: 'integer' }, { type: 'string', enum: ['mobile'] }] });
}

const checkers = new WeakMap<TSchema, TypeCheck<TSchema>>();

function compiled<S extends TSchema>(schema: S): TypeCheck<S> {
  let check = checkers.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    checkers.set(schema, check);
  }
  return check as TypeCheck<S>;
}

// A JSON-encoded value checked against a TypeBox schema. Options cover what real clients send besides JSON:
// `raw` accepts a non-JSON value as a plain string; arrays may arrive comma-joined from the JavaScript client.
// `maxItems` bounds a list below the generic MAX_JSON_ITEMS (src/lib/limits.ts has every such bound).
export function json<S extends TSchema>(schema: S, opts: { raw?: boolean; maxItems?: number } = {}): Param<Static<S>> {
  const { maxItems } = opts;
  return make((raw, name) => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      if (opts.raw) value = raw;
      else if (schema.type === 'array' && raw.trim() !== '' && !/^\s*[[{"]/.test(raw)) {
        value = raw.split(',').map((part) => (INTEGER.test(part.trim()) ? Number(part.trim()) : part));
      } else throw new InvalidJsonError(name);
    }
    if (maxItems !== undefined && Array.isArray(value) && value.length > maxItems) throw new InvalidArgumentError(name, tooMany(name, maxItems));
    checkJsonValue(value, name);
    // Compiled at the first use, not when the route is declared: hundreds of checkers made at start-up held
    // memory an idle server does not need (B8).
    const check = compiled(schema);
    if (!check.Check(value)) {
      const first = check.Errors(value).First();
      const where = first && first.path ? `${name}${first.path.replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.')}` : name;
      throw new InvalidArgumentError(name, `${where} is invalid: ${first?.message ?? 'unexpected value'}`);
    }
    return value as Static<S>;
  }, { ...(schema as unknown as Record<string, unknown>), ...(maxItems !== undefined ? { maxItems } : {}) });
}

export const MAX_JSON_DEPTH = 64;
// Lists of ids end up in queries (`id IN (…)`), whose parameters the databases bound (SQLite to 32,766).
export const MAX_JSON_ITEMS = 10_000;

// Walks a decoded JSON value without recursion (hostile input may nest thousands deep): refuses values nested
// deeper than MAX_JSON_DEPTH, arrays or objects of more than MAX_JSON_ITEMS entries, and strings containing NUL.
function checkJsonValue(value: unknown, name: string): void {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v === 'string') {
      if (hasNullByte(v)) throw new InvalidArgumentError(name, `${name} contains NULL (0x00) characters`);
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_JSON_DEPTH) throw new InvalidArgumentError(name, `${name} is nested too deeply`);
      if ((Array.isArray(v) ? v.length : Object.keys(v).length) > MAX_JSON_ITEMS) {
        throw new InvalidArgumentError(name, tooMany(name, MAX_JSON_ITEMS));
      }
      for (const [k, child] of Array.isArray(v) ? v.entries() : Object.entries(v)) {
        if (typeof k === 'string' && hasNullByte(k)) throw new InvalidArgumentError(name, `${name} contains NULL (0x00) characters`);
        stack.push([child, depth + 1]);
      }
    }
  }
}

export interface ParsedParams<D extends ParamDecl> {
  values: Params<D>;
  ignored: string[];
}

// `raw` holds every incoming name with its (last) value, from the query string and body merged; path
// parameters are passed separately so that a copy of them in the query is reported as ignored, as the
// reference server does for the JavaScript client's extra `message_id`.
export function parseParams<D extends ParamDecl>(
  decl: D,
  raw: Map<string, string>,
  path: Record<string, string> = {},
): ParsedParams<D> {
  const values: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const [name, param] of Object.entries(decl)) {
    const { def } = param;
    let source: string | undefined;
    let value: string | undefined;
    if (name in path) {
      value = path[name];
      source = name;
    } else {
      for (const key of [name, ...def.aliases]) {
        known.add(key);
        if (!raw.has(key)) continue;
        if (source !== undefined) throw new ConfusingArgumentError(source, key);
        source = key;
        value = raw.get(key);
      }
    }
    if (value === undefined) {
      if (def.required) throw new MissingArgumentError(name);
      values[name] = def.hasDefault ? def.defaultValue : undefined;
      continue;
    }
    values[name] = def.parse(value, source ?? name);
  }
  const ignored = [...raw.keys()].filter((key) => !known.has(key));
  return { values: values as Params<D>, ignored };
}

export function paramSchema(param: Param<unknown, boolean>): Record<string, unknown> {
  const { def } = param;
  return {
    ...def.schema,
    ...(def.hasDefault ? { default: def.defaultValue } : {}),
  };
}

// Optional raw-JSON parameters named after settings (any value: the action checks each setting's type).
export const settingParamsOf = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, json(Type.Unknown(), { raw: true }).optional()]));

// Of `values`, the entries named in `names` that the request gave.
export const given = (values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> =>
  Object.fromEntries(names.filter((n) => values[n] !== undefined).map((n) => [n, values[n]]));
